#pragma once
// The worker's source-level profile of one evaluation (docs/worker-protocol.md, evaluate option
// "source_profile"): CUPTI PC sampling, per kernel and per PC, with stall reasons and the source line of
// each PC. Parsed once from the result's "source_profile" object and written back losslessly.
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <utility>

namespace kforge {

struct SourceProfile {
    enum class Status {
        Absent, // the evaluation did not ask for the pass (no "source_profile" key)
        Ok,
        Unavailable, // the host cannot sample (permission, unsupported GPU, no line info...): see reason
        Failed,      // the pass ran and failed
    };
    struct Pc {
        qint64 offset = 0; // into the kernel's SASS
        qint64 samples = 0;
        QList<std::pair<QString, qint64>> stalls; // short reason name -> samples, as sent
        QString file;                             // empty when the PC has no line info
        int line = 0;
        // CUPTI SASS metrics: executions of the instruction in the pass's patched launch, warp-level and
        // thread-level; -1 when not measured. A PC that executed but was never sampled has 0 samples.
        qint64 executed = -1;
        qint64 threadsExecuted = -1;
        bool hasExecuted() const { return executed >= 0; }
        // threads / (32 * warps) in 0..1, or -1 without both counts.
        double threadEfficiency() const;
        friend bool operator==(const Pc &, const Pc &) = default;
    };
    struct Kernel {
        QString name; // mangled
        QString side; // "candidate" or "reference"
        qint64 samples = 0;
        qint64 dropped = 0;
        QList<Pc> pcs;
        friend bool operator==(const Kernel &, const Kernel &) = default;
    };

    Status status = Status::Absent;
    QString reason;
    QStringList missing; // "counters_permission", "line_info", "pc_sampling_unsupported", ...
    double costMs = 0;
    int period = 0;
    int sassRuns = 0; // launches under CUPTI SASS metrics (0: no execution counts)
    QStringList stallReasons;
    QList<Kernel> kernels;

    bool isOk() const { return status == Status::Ok; }
    // Samples of all kernels of one side.
    qint64 totalSamples(const QString &side = QStringLiteral("candidate")) const;
    // Whether any sampled PC of `side` has a source line (a build without -lineinfo has none).
    bool hasLines(const QString &side = QStringLiteral("candidate")) const;
    // What the user reads when there is no usable profile: the worker's reason, or what is missing and what
    // would enable it. Empty when the profile is usable.
    QString problem() const;
    // Whether any PC of `side` has an execution count (SASS metrics).
    bool hasExecutionCounts(const QString &side = QStringLiteral("candidate")) const;
    // Why there are no execution counts (the worker's reason for "sass_metrics"); empty when there are
    // counts or when the profile itself is absent.
    QString executionCountsProblem() const;

    // `evaluation` is a whole evaluate result; its "source_profile" object is read (Absent without one).
    static SourceProfile fromResult(const QJsonObject &evaluation);
    static SourceProfile fromJson(const QJsonObject &sourceProfile);
    QJsonObject toJson() const;
    static QString statusName(Status s);
    friend bool operator==(const SourceProfile &, const SourceProfile &) = default;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::SourceProfile)
