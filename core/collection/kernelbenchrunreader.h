#pragma once
// A KernelBench run folder (runs/<run_name>/ as KernelBench's generate_samples.py writes it): one generated kernel
// per problem and sample, `level_<L>_problem_<P>_sample_<S>_kernel.py`, paired with problem P of level L in a
// KernelBench checkout (`KernelBench/level<L>/<P>_<Name>.py`). Its eval_results.json, where present, says which
// samples KernelBench found correct and their runtime; with KernelBench's baseline timing file (--baseline,
// results/timing/<gpu>/baseline_time_torch.json) that runtime becomes the claimed speedup.
#include "core/collection/collection.h"

#include <QCoreApplication>
#include <optional>

namespace kforge {

class KernelBenchRunReader
{
    Q_DECLARE_TR_FUNCTIONS(kforge::KernelBenchRunReader)

public:
    // Whether `folder` holds a file named like a generated kernel.
    static bool isRunFolder(const QString &folder);
    // Nullopt with `error` when the problems folder holds no problem, or a file given cannot be read as JSON.
    static std::optional<Collection> read(const QString &runFolder, const QString &problemsFolder,
                                          const QString &baselineFile, QString *error);
};

} // namespace kforge
