#include "views/editor/diagnosticformat.h"

#include "core/compile/compiler.h"
#include "core/eval/kernelname.h"

#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>

using namespace Qt::Literals::StringLiterals;

namespace kforge {

QString DiagnosticFormat::severityName(Diagnostic::Severity severity)
{
    switch (severity) {
    case Diagnostic::Severity::Error: return tr("error");
    case Diagnostic::Severity::Warning: return tr("warning");
    case Diagnostic::Severity::Note: break;
    }
    return tr("note");
}

QString DiagnosticFormat::headline(const Diagnostic &d)
{
    QString kind = severityName(d.severity);
    if (!d.code.isEmpty())
        kind += u" #"_s + d.code;
    return tr("%1: %2").arg(kind, d.message.trimmed());
}

QString DiagnosticFormat::withLocation(const Diagnostic &d)
{
    QString where = d.file;
    if (!where.isEmpty() && d.line > 0) {
        where += u':' + QString::number(d.line);
        if (d.column > 0)
            where += u':' + QString::number(d.column);
    } else if (where.isEmpty() && d.line > 0) {
        where = d.column > 0 ? tr("line %1, column %2").arg(d.line).arg(d.column) : tr("line %1").arg(d.line);
    }
    if (where.isEmpty())
        where = d.tool;
    return where.isEmpty() ? headline(d) : tr("%1: %2").arg(where, headline(d));
}

QString DiagnosticFormat::summary(const QList<Diagnostic> &diagnostics)
{
    int errors = 0;
    int warnings = 0;
    for (const Diagnostic &d : diagnostics) {
        errors += d.severity == Diagnostic::Severity::Error;
        warnings += d.severity == Diagnostic::Severity::Warning;
    }
    QStringList parts;
    if (errors > 0)
        parts << tr("%n error(s)", nullptr, errors);
    if (warnings > 0)
        parts << tr("%n warning(s)", nullptr, warnings);
    return parts.join(tr(", "));
}

QString DiagnosticFormat::nvccFileName(const QString &name)
{
    return Compiler::sanitizedFileName(name);
}

bool DiagnosticFormat::isInSource(const Diagnostic &d, const QString &compileFileName)
{
    if (d.line <= 0)
        return false;
    if (d.file.isEmpty())
        return true;
    // nvcc may print the file as given or with the work folder in front.
    const QString base = QFileInfo(d.file).fileName();
    if (compileFileName.isEmpty())
        return base.endsWith(u".cu");
    return base == nvccFileName(compileFileName) || base == QFileInfo(compileFileName).fileName();
}

QString DiagnosticFormat::shortKernelName(const KernelResources &k)
{
    const QString name = kernelDisplayName(k.name.isEmpty() ? k.mangledName : k.name);
    return name.isEmpty() ? k.mangledName : name;
}

QString DiagnosticFormat::bytes(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

} // namespace kforge
