#pragma once
// For the compile service's tests: one job through a Compiler, waited for, and the names of its steps.
#include "core/compile/compiler.h"

#include <QSignalSpy>
#include <QStringList>

namespace kforge::test {

// The job's result once finished() names it (an empty result, with a warning, after 200 s).
inline CompileResult run(Compiler &compiler, const CompileRequest &request)
{
    QSignalSpy spy(&compiler, &Compiler::finished);
    const int id = compiler.compile(request);
    for (int waited = 0; waited < 40; ++waited) {
        for (const auto &args : std::as_const(spy))
            if (args.at(0).toInt() == id)
                return args.at(1).value<CompileResult>();
        spy.wait(5000);
    }
    qWarning("compile job %d did not finish", id);
    return {};
}

inline QStringList phaseNames(const CompileResult &r)
{
    QStringList names;
    for (const CompilePhase &p : r.phases)
        names << p.name;
    return names;
}

} // namespace kforge::test
