#pragma once
// What the session report shows, gathered from a session up front so the HTML and Markdown writers are
// plain functions of it: the task, every variant's outcome (for the chart), the rounds, and the best
// variants in full (source, diff against the reference, metrics, the model's analysis and design).
#include "core/eval/speedoflight.h"
#include "core/session/roundrecord.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace kforge {

class SessionStore;

struct ReportVariant {
    qint64 id = 0;
    QString label;
    QString origin; // reference, manual, model, imported
    int round = 0;
    QString verdict;      // the stored word, as the report prints it; "" when never evaluated
    bool correct = false; // the verdict is Verdict::Correct
    QString statusMessage;
    std::optional<double> speedup;
    bool suspicious = false;
    bool accepted = false;
    QString suspiciousReason;
    QList<qint64> parentIds;
    QDateTime created;

    bool isReference() const { return origin == QLatin1String("reference"); }
    bool isCorrect() const { return correct; }
    bool isHeld() const { return suspicious && !accepted; }
};

// One of the best variants, in full.
struct ReportDetail {
    ReportVariant variant;
    QString source;
    QString analysis;
    QString design;
    QString model;
    std::optional<double> referenceMs;
    std::optional<double> candidateMs;
    std::optional<double> candidateCv;
    std::optional<double> candidateKernelMs; // the kernel time (CUPTI), when the evaluation traced it
    std::optional<double> speedOfLightPct; // speedOfLight.percent()
    SpeedOfLight speedOfLight;
    QStringList profile;  // compact profile lines (bound, achieved bandwidth, occupancy, registers...)
    QStringList hotLines; // its hottest source lines, when it was profiled at source level (SourceHeat::promptLines)
    QStringList flags;
    QString nvccVersion;
    QStringList nvccFlags;
    QDateTime evaluated;
    QList<qint64> lineage; // oldest first, ending with this variant
};

struct ReportRound {
    int number = 0;
    QString state;
    QDateTime started;
    QDateTime finished;
    RoundUsage usage;
    int variants = 0;
    int correct = 0;
    std::optional<double> bestSpeedup;
};

struct ReportInput {
    QString sessionFile; // file name only
    QString taskName;
    QString taskTitle;
    QString taskDescription;
    bool taskDegenerate = false;
    QString referenceSource;
    QString gpu;                   // as the latest evaluation's device reports it
    QList<ReportVariant> variants; // creation order
    QList<ReportDetail> best;      // fastest first
    QList<ReportRound> rounds;
    RoundUsage usage;
    QString kforgeVersion;
    QDateTime generated;

    const ReportVariant *find(qint64 id) const;
};

class ReportSource
{
    Q_DECLARE_TR_FUNCTIONS(kforge::ReportSource)

public:
    // The report of an open session: the `top` fastest correct variants in detail (held-for-review ones
    // included, and marked). False with *error when the session has no task.
    static std::optional<ReportInput> build(const SessionStore &store, int top, QString *error);
};

} // namespace kforge
