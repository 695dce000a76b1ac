#pragma once
// The sortable columns of one evaluation, kept in memory for every variant of an open session; the full
// worker result (trace, metrics, roofline) stays in the store until asked for (EvaluationRepository::find()).
#include "core/eval/evalresult.h"

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
    // As in the worker protocol (correct, incorrect, crashed, cuda_error, timeout, load_error), plus compile_error
    // when the candidate never reached a worker and error when no verdict came; empty for no evaluation and for a
    // stored word this version does not know (otherVerdict).
    std::optional<Verdict> verdict;
    QString otherVerdict; // the file's verdict where it is none of Verdict's words, kept to be shown and written back
    std::optional<double> speedup;
    std::optional<double> referenceMedianMs;
    std::optional<double> candidateMedianMs;
    std::optional<double> candidateCv;
    QStringList flags; // degenerate_output, side_stream_work, late_work, below_speed_of_light, ...
    QString message;
    QDateTime created;

    bool isCorrect() const { return verdict == Verdict::Correct; }
    bool hasVerdict() const { return verdict || !otherVerdict.isEmpty(); }
    // The verdict as the file stores it ("correct", "cuda_error", or the unknown word); empty without one.
    QString verdictName() const;
    // The other way: a known word sets verdict, any other non-empty one otherVerdict.
    void setVerdictName(const QString &wire);
    bool hasFlag(QLatin1String flag) const { return flags.contains(flag); }

    // Fills the columns from a stored evaluation; absent fields stay empty.
    static EvaluationSummary fromMeasurement(const Measurement &m);
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::EvaluationSummary)
