#pragma once
// What `kforge-cli verify` prints: the plan (a row per pair: what runs, what was claimed, what the import said),
// the records that could not be verified, a progress line per finished evaluation and the summary at the end.
#include "core/collection/collection.h"
#include "core/collection/collectionimporter.h"
#include "core/collection/verifyrecord.h"
#include "core/collection/verifytable.h"

#include <QCoreApplication>
#include <QMap>
#include <QTextStream>
#include <optional>

namespace kforge::cli {

struct VerifyPrint {
    Q_DECLARE_TR_FUNCTIONS(kforge::cli::VerifyPrint)

public:
    static void issues(QTextStream &out, const QList<CollectionIssue> &issues);
    static void plan(QTextStream &out, const QList<CollectionPair> &pairs,
                     const QMap<QString, ImportedProblem> &problems, bool heldOut);
    // "[3/20] level1/2_ReLU.py (heldout_1): correct 1.10x · 4.2 s elapsed, ETA 0:38"
    static QString progress(const VerifyRecord &r, int done, int total, double elapsedS, std::optional<double> etaS);
    static void summary(QTextStream &out, const VerifySummary &s);
    static QString duration(double s); // "0:38", "12:05", "1:02:03"
};

} // namespace kforge::cli
