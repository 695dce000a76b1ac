#pragma once
// Everything an export needs, gathered up front (from a session, or built by hand in a test), so the
// generators never touch the session store: the task, the two sources, the variant's lineage and the
// provenance of its measurement.
#include "core/eval/speedoflight.h"
#include "core/runtime/task/taskspec.h"
#include "core/task/taskkind.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

namespace kforge {

// One step of the lineage, oldest first; the exported variant is the last one.
struct ExportLineageStep {
    qint64 variantId = 0;
    QString label;
    QString origin; // reference, manual, model, imported
    int round = 0;  // 0 when not made by a round
    std::optional<double> speedup;
};

// Where and how the exported variant was measured.
struct ExportProvenance {
    QString gpuName;
    int ccMajor = 0;
    int ccMinor = 0;
    QString arch; // "sm_90"; "sm_90a" when the kernel needs the arch-specific features
    QString driverVersion;
    QString runtimeVersion;
    QString nvccVersion;   // "13.0.88" or nvcc's banner line
    QStringList nvccFlags; // the full flag list the variant was compiled with
    std::optional<double> referenceMedianMs;
    std::optional<double> candidateMedianMs;
    std::optional<double> referenceCv;
    std::optional<double> candidateCv;
    std::optional<double> candidateKernelMs; // the kernel time (CUPTI) per run, when the evaluation traced it
    std::optional<double> speedup;
    std::optional<double> speedOfLightPct; // speedOfLight.percent(), or set by hand where there is no result
    SpeedOfLight speedOfLight;             // the one computation (core/eval/speedoflight.h)
    qint64 timingRuns = 0;
    std::optional<qint64> seed; // the evaluation seed (`kforge-cli eval --seed` reproduces the inputs); empty: not recorded
    QStringList flags;          // the evaluation's warning flags
    QString suspiciousReason; // set when the session holds the result for review and nobody accepted it
    QDateTime variantCreated;
    QDateTime evaluated;
    QString sessionFile; // file name only: the export should not leak the user's folder layout
    QString model;       // the model that wrote the variant, when one did

    // "90" / "90a" for CMAKE_CUDA_ARCHITECTURES, from arch or the compute capability; "90" when unknown.
    QString cudaArchNumber() const;
};

struct ExportInput {
    runtime::TaskSpec task; // parsed task.json (shapes evaluated)
    QString taskJson;       // task.json as stored in the session, shipped verbatim
    // The loaded task's kind (TaskRecord::kind, Task::kind()), which picks the exporter; task.kind is the worker's
    // parse and stays Cuda for a PyTorch task that Task read.
    TaskKind taskKind = TaskKind::Cuda;
    QString variantSource;
    QString referenceSource;
    qint64 variantId = 0;
    QString variantLabel;
    QStringList variantNvccFlags; // the variant's extra flags on top of the task's
    QList<ExportLineageStep> lineage;
    ExportProvenance provenance;
    QString kforgeVersion; // KFORGE_VERSION_STRING unless a test pins it

    // Every flag the kernel needs to build: the task's, then the variant's.
    QStringList buildFlags() const;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::ExportInput)
