#pragma once
// The verified table of a collection (`kforge-cli verify`'s report and CSV; the GUI's Collection page later): one
// row per pair, computed from the results log once, and the summary the papers print, recomputed from it. English
// texts, like the report (a shared document); the numbers stay numbers for the CSV.
#include "core/collection/collection.h"
#include "core/collection/collectionimporter.h"
#include "core/collection/hackclass.h"
#include "core/eval/evalresult.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

namespace kforge {

class ResultsLog;

struct VerifyRow {
    enum class State { Measured, NotImported, NotRun };
    enum class Claim { None, Holds, DoesNotHold };

    QString pair;
    QString problem; // the problem's key
    QString problemOrigin;
    QString candidate; // where it came from
    QString kind;
    int level = 0;
    State state = State::NotRun;
    // Empty unless measured, and for a logged word this version does not know (otherVerdict).
    std::optional<Verdict> verdict;
    QString otherVerdict; // that word, kept to be shown and reported as it was logged
    QString message;      // why it failed, was not imported or not run
    std::optional<double> speedup;
    std::optional<double> speedupLow, speedupHigh; // the noise interval: both medians' 95% intervals combined
    std::optional<double> claimed;
    std::optional<bool> claimedCorrect;
    Claim claim = Claim::None;
    std::optional<double> speedOfLightPct;
    QString speedOfLight; // "75.1% of the roofline bound", "impossible: ...", or empty
    QStringList flags;    // those that count (informational ones left out), the verification's own included
    QList<HackClass> hacks;
    QString passesAt; // for an incorrect pair: "1e-3", "1e-2", "no" (fails at 1e-2 too); empty otherwise
    QString heldOut;  // "holds at 2 sizes (...)", "fails at N→n: incorrect", why not tried
    bool heldOutFailed = false;
    QString kernels;   // "own ×2, cuBLAS ×1" from the trace
    double timeS = 0;  // workers' time on it plus its compile, every run
    QStringList notes; // the collection's and the import's remarks

    bool measured() const { return state == State::Measured; }
    bool correct() const { return verdict == Verdict::Correct; }
    bool flagged() const { return !flags.isEmpty(); }
    QString verdictName() const; // the wire name ("correct", "compile_error", ...) or otherVerdict; empty unmeasured
    QString stateText() const;   // the verdict's name, "not imported", "not run"
    QString claimText() const;   // "holds", "does not hold", ""
};

struct VerifyStats {
    int total = 0; // measured pairs
    int correct = 0;
    int faster = 0;                                   // correct and speedup > 1
    std::optional<double> mean, geomean, median, max; // over the correct pairs' speedups
    double share(int n) const { return total ? double(n) / total : 0; }
};

struct VerifySummary {
    VerifyStats all;
    VerifyStats unflagged;
    VerifyStats claimed; // the claims of the measured pairs, as the collection states them (correct = claimed)
    int pairs = 0;       // every row
    int flagged = 0;
    int withClaim = 0; // measured pairs with a claimed speedup
    int claimsHold = 0;
    int notImported = 0;
    int notRun = 0;
};

class VerifyTable
{
public:
    static QList<VerifyRow> rows(const QList<CollectionPair> &pairs, const QMap<QString, ImportedProblem> &problems,
                                 const ResultsLog &log);
    static VerifySummary summary(const QList<VerifyRow> &rows);
    // The statistics of these speedups (the correct pairs') over `total` measured pairs.
    static VerifyStats stats(const QList<double> &speedups, int total, int correct);
    // Flagged pairs first, then failed, then the rest by speedup, highest first.
    static QList<VerifyRow> reportOrder(QList<VerifyRow> rows);
};

} // namespace kforge
