#include "core/compile/compileresult.h"

#include <QJsonArray>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

int CompileResult::errorCount() const
{
    return int(std::count_if(diagnostics.cbegin(), diagnostics.cend(),
                             [](const Diagnostic &d) { return d.severity == Diagnostic::Severity::Error; }));
}

int CompileResult::warningCount() const
{
    return int(std::count_if(diagnostics.cbegin(), diagnostics.cend(),
                             [](const Diagnostic &d) { return d.severity == Diagnostic::Severity::Warning; }));
}

QString CompileResult::firstError() const
{
    for (const Diagnostic &d : diagnostics)
        if (d.severity == Diagnostic::Severity::Error)
            return d.toString();
    return errorMessage;
}

QJsonObject CompileResult::toJson() const
{
    return QJsonObject{
        {u"ok"_s, ok},
        {u"output"_s, int(output)},
        {u"artifact"_s, artifactPath},
        {u"diagnostics"_s, Diagnostic::listToJson(diagnostics)},
        {u"resources"_s, KernelResources::listToJson(resources)},
        {u"log"_s, log},
        {u"error"_s, errorMessage},
        {u"hash"_s, hash},
        {u"arch"_s, arch},
        {u"nvcc_version"_s, nvccVersion},
        {u"command"_s, QJsonArray::fromStringList(commandLine)},
        {u"elapsed_ms"_s, elapsedMs},
    };
}

CompileResult CompileResult::fromJson(const QJsonObject &o)
{
    CompileResult r;
    r.ok = o.value("ok"_L1).toBool();
    r.output = CompileOutput(o.value("output"_L1).toInt());
    r.artifactPath = o.value("artifact"_L1).toString();
    r.diagnostics = Diagnostic::listFromJson(o.value("diagnostics"_L1).toArray());
    r.resources = KernelResources::listFromJson(o.value("resources"_L1).toArray());
    r.log = o.value("log"_L1).toString();
    r.errorMessage = o.value("error"_L1).toString();
    r.hash = o.value("hash"_L1).toString();
    r.arch = o.value("arch"_L1).toString();
    r.nvccVersion = o.value("nvcc_version"_L1).toString();
    for (const QJsonValue &v : o.value("command"_L1).toArray())
        r.commandLine.append(v.toString());
    r.elapsedMs = o.value("elapsed_ms"_L1).toDouble();
    return r;
}

} // namespace kforge
