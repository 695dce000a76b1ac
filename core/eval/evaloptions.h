#pragma once
// How thoroughly the worker verifies and times one evaluation (the protocol's evaluate "options").
// The defaults are what the workbench uses; the CLI and the benchmark use them too, so figures agree.
#include <QJsonObject>
#include <QMetaType>
#include <QStringList>

namespace kforge {

struct EvalOptions {
    int trials = 5;          // verification trials, each with a new seed and fresh buffers
    int minRuns = 100;       // timing: at least this many runs per side...
    int minTimeMs = 1000;    // ...or this much measured time, whichever comes first (see docs/worker-protocol.md)
    int maxRuns = 10000;
    int warmup = 10;
    qint64 seed = 1;
    bool trace = true;       // CUPTI kernel trace of the candidate
    bool metrics = true;     // hardware metrics pass (slower)
    QStringList metricNames; // empty: the worker's default set

    static EvalOptions fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    friend bool operator==(const EvalOptions &, const EvalOptions &) = default;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::EvalOptions)
