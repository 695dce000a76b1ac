#pragma once
// The outputs of a verified collection beside results.jsonl: report.html (one self-contained file: the summary the
// papers print recomputed over all pairs and over the pairs without flags, the claims that hold, the measured
// speedups against the claims as an inline SVG, the table with the flagged pairs first, the records that could not
// be verified with their cause) and results.csv (a row per pair, numbers as numbers). English, like every report.
#include "core/collection/collection.h"
#include "core/collection/verifytable.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace kforge {

struct VerifyReportInput {
    QString collection; // as the user named it
    CollectionFormat format = CollectionFormat::ProblemFolder;
    QString device;  // the GPU (or "not run" for a report without measurements)
    QString workers; // the worker commands
    QDateTime generated;
    QString kforgeVersion;
    QString tolerance; // the tolerance the tasks judge f32 outputs with, for people
    QList<VerifyRow> rows;
    VerifySummary summary;
    QList<CollectionIssue> issues;
};

class VerifyReport
{
public:
    static QString html(const VerifyReportInput &input);
    static QString csv(const QList<VerifyRow> &rows);
    static QStringList csvHeader();
    // "1.23x", "—"
    static QString speedupText(std::optional<double> v);
};

} // namespace kforge
