#pragma once
// The sortable columns of one evaluation, kept in memory for every variant of an open session; the full
// worker result (trace, metrics, roofline) stays in the store until asked for (SessionStore::evaluation()).
#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

namespace kforge {

struct Measurement;

struct EvaluationSummary {
    qint64 id = 0;
    qint64 variantId = 0;
    QString verdict; // as in the worker protocol: correct, incorrect, crashed, cuda_error, timeout,
                     // load_error, plus compile_error when the candidate never reached a worker
    std::optional<double> speedup;
    std::optional<double> referenceMedianMs;
    std::optional<double> candidateMedianMs;
    std::optional<double> candidateCv;
    QStringList flags; // degenerate_output, side_stream_work, late_work, below_speed_of_light, ...
    QString message;
    QDateTime created;

    bool isCorrect() const { return verdict == QLatin1String("correct"); }
    bool hasFlag(QLatin1String flag) const { return flags.contains(flag); }

    // Fills the columns from a stored evaluation; absent fields stay empty.
    static EvaluationSummary fromMeasurement(const Measurement &m);
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::EvaluationSummary)
