#pragma once
// One evaluation of a collection's pair, as `kforge-cli verify` appends it to <out>/results.jsonl: which pair, which
// run of it (the measurement itself, a re-verification at a looser tolerance, a held-out size) and the result in
// the stored shape (Measurement::toJson(), what a session keeps of an evaluation), one JSON object per line.
#include "core/eval/measurement.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <optional>

namespace kforge {

enum class VerifyRun {
    Main,       // the pair as published: the task's own tolerance and sizes
    Tolerance3, // failed at the task's tolerance: again with atol = rtol = 1e-3
    Tolerance2, // ... and with 1e-2 (KernelBench's)
    HeldOut1,   // correct: again at held-out size 1 (core/collection/heldoutsizes.h)
    HeldOut2,   // ... and 2
};
QString runName(VerifyRun r); // "main", "tol_1e-3", "tol_1e-2", "heldout_1", "heldout_2"
std::optional<VerifyRun> runFromName(const QString &name);
double runTolerance(VerifyRun r); // 1e-3, 1e-2; 0 for the others
int heldOutIndex(VerifyRun r);    // 1, 2; 0 for the others

struct VerifyRecord {
    QString pair; // CollectionPair::id
    VerifyRun run = VerifyRun::Main;
    QString problem;   // the problem's key
    QString task;      // the task evaluated (the problem's, or its held-out task's)
    QString candidate; // where the candidate came from
    QString kind;      // kindName()
    std::optional<double> claimedSpeedup;
    Measurement result;
    double wallS = 0;    // submit to finish, as the runner saw it (compile and queue included)
    double workerS = -1; // a worker taking it to its result; -1 when unknown
    QDateTime finishedAt;

    QJsonObject toJson() const;
    // Nullopt for an object that is no record (no pair, an unknown run).
    static std::optional<VerifyRecord> fromJson(const QJsonObject &o);
};

} // namespace kforge
