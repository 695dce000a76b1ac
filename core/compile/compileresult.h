#pragma once
// The outcome of one compile job: the artifact (a cached .so path, or PTX/SASS text), the parsed
// diagnostics and per-kernel resources, and the raw tool output.
#include "core/compile/compilerequest.h"
#include "core/eval/diagnostic.h"
#include "core/eval/kernelresources.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace kforge {

// Where a compile's wall time went: one nvcc step ("host: cudafe++", "device: cicc", "g++ (linking)"...).
struct CompilePhase {
    QString name;
    double ms = 0;
};

struct CompileResult {
    int jobId = 0;
    bool ok = false;
    bool cacheHit = false;
    bool cancelled = false;
    CompileOutput output = CompileOutput::SharedObject;
    QString artifactPath; // the .so, .ptx or .sass file inside the cache entry
    QString text;         // PTX or SASS text (empty for a shared object)
    QList<Diagnostic> diagnostics;
    QList<KernelResources> resources;
    QString log;          // everything nvcc and the tools printed
    QString errorMessage; // translated summary when !ok
    QString hash;         // cache key (SHA-256, hex)
    QString arch;
    QString nvccVersion;     // "13.0.88"
    QStringList commandLine; // program and arguments, for the log
    double elapsedMs = 0;
    QList<CompilePhase> phases; // of this compile (not kept in the cache entry: a hit has none)

    int errorCount() const;
    int warningCount() const;
    // The first error diagnostic as "file:line: message", else errorMessage.
    QString firstError() const;

    // The cache entry's metadata (everything but jobId, cacheHit, text and phases).
    QJsonObject toJson() const;
    static CompileResult fromJson(const QJsonObject &o);
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::CompileResult)
