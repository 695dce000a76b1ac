#include "core/collection/verifytable.h"

#include "core/collection/resultslog.h"

#include <QMap>
#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString tolText(double t)
{
    return t >= 1e-2 ? u"1e-2"_s : u"1e-3"_s;
}

// The speedup's noise interval from both medians' 95% intervals (timing.adaptive): the slowest candidate against
// the fastest reference and the other way round.
void interval(const Measurement &m, VerifyRow &row)
{
    const AdaptiveTiming &a = m.adaptive;
    if (!a.isValid() || !(a.candidate.lowMs > 0) || !(a.candidate.highMs > 0) || !(a.reference.lowMs > 0)
        || !(a.reference.highMs > 0))
        return;
    row.speedupLow = a.reference.lowMs / a.candidate.highMs;
    row.speedupHigh = a.reference.highMs / a.candidate.lowMs;
}

QString kernelsText(const Measurement &m)
{
    QMap<QString, int> byLibrary;
    for (const TraceKernel &k : m.traceSummary.candidate.kernels)
        ++byLibrary[HackClasses::libraryOf(k.name)];
    QStringList parts;
    if (byLibrary.contains(u"own"_s))
        parts << u"own ×%1"_s.arg(byLibrary.take(u"own"_s));
    for (auto it = byLibrary.cbegin(); it != byLibrary.cend(); ++it)
        parts << u"%1 ×%2"_s.arg(it.key()).arg(it.value());
    return parts.join(u", "_s);
}

double runTime(const VerifyRecord &r)
{
    double s = r.workerS >= 0 ? r.workerS : r.wallS;
    if (r.result.compile.present && !r.result.compile.cacheHit)
        s += r.result.compile.elapsedMs / 1000;
    return s;
}

void heldOut(const CollectionPair &pair, const ImportedProblem *problem, const ResultsLog &log, VerifyRow &row)
{
    if (!row.correct())
        return;
    // A pair outside this run's selection (--only, --limit) has no import to name its sizes: its log does.
    QList<HeldOutTask> sizes = problem ? problem->heldOut : QList<HeldOutTask>();
    if (!problem)
        for (int k : {1, 2})
            if (log.find(pair.id, k == 1 ? VerifyRun::HeldOut1 : VerifyRun::HeldOut2))
                sizes.append({k, u"size %1"_s.arg(k), u"-"_s, {}});
    if (sizes.isEmpty()) {
        row.heldOut = problem && !problem->heldOutNote.isEmpty() ? u"not tried: "_s + problem->heldOutNote : u"not tried"_s;
        return;
    }
    QStringList held, failed, missing;
    for (const HeldOutTask &h : std::as_const(sizes)) {
        const VerifyRecord *r = log.find(pair.id, h.index == 1 ? VerifyRun::HeldOut1 : VerifyRun::HeldOut2);
        if (h.taskFolder.isEmpty())
            missing << u"%1 not imported (%2)"_s.arg(h.sizes, h.error);
        else if (!r)
            missing << u"%1 not run"_s.arg(h.sizes);
        else if (r->result.isCorrect())
            held << h.sizes;
        else
            failed << u"%1: %2"_s.arg(h.sizes, r->result.verdictName());
    }
    row.heldOutFailed = !failed.isEmpty();
    if (!failed.isEmpty())
        row.heldOut = u"fails at "_s + failed.join(u"; "_s);
    else if (!held.isEmpty())
        row.heldOut =
            u"holds at %1 size%2 (%3)"_s.arg(held.size()).arg(held.size() == 1 ? QString() : u"s"_s).arg(held.join(u"; "_s));
    if (!missing.isEmpty())
        row.heldOut += (row.heldOut.isEmpty() ? QString() : u"; "_s) + missing.join(u"; "_s);
}

} // namespace

QString VerifyRow::verdictName() const
{
    return verdict ? verdictToString(*verdict) : otherVerdict;
}

QString VerifyRow::stateText() const
{
    switch (state) {
    case State::Measured: return verdictName();
    case State::NotImported: return u"not imported"_s;
    case State::NotRun: break;
    }
    return u"not run"_s;
}

QString VerifyRow::claimText() const
{
    switch (claim) {
    case Claim::Holds: return u"holds"_s;
    case Claim::DoesNotHold: return u"does not hold"_s;
    case Claim::None: break;
    }
    return {};
}

QList<VerifyRow> VerifyTable::rows(const QList<CollectionPair> &pairs, const QMap<QString, ImportedProblem> &problems,
                                   const ResultsLog &log)
{
    QList<VerifyRow> rows;
    for (const CollectionPair &pair : pairs) {
        VerifyRow row;
        row.pair = pair.id;
        row.problem = pair.problemKey;
        row.problemOrigin = pair.problemOrigin;
        row.candidate = pair.candidateOrigin;
        row.kind = kindName(pair.kind);
        row.level = pair.level;
        row.claimed = pair.claimedSpeedup;
        row.claimedCorrect = pair.claimedCorrect;
        row.notes = pair.notes;
        const auto problem = problems.constFind(pair.problemKey);
        const ImportedProblem *imported = problem == problems.cend() ? nullptr : &*problem;
        if (imported)
            row.notes << imported->notes;
        const VerifyRecord *main = log.find(pair.id, VerifyRun::Main);
        if (!main) {
            row.state = imported && !imported->ok() ? VerifyRow::State::NotImported : VerifyRow::State::NotRun;
            if (row.state == VerifyRow::State::NotImported)
                row.message = imported->error.step + u": "_s + imported->error.cause;
            rows << row;
            continue;
        }
        const Measurement &m = main->result;
        row.state = VerifyRow::State::Measured;
        // A word this version does not know (a later version's log) is kept as logged (Measurement::verdictName()).
        row.verdict = verdictFromString(m.verdictName());
        if (!row.verdict)
            row.otherVerdict = m.verdictName();
        if (!m.isCorrect())
            row.message = m.message.section(u'\n', 0, 1).trimmed();
        if (m.isCorrect() && std::isfinite(m.speedup)) {
            row.speedup = m.speedup;
            interval(m, row);
        }
        if (const std::optional<double> pct = m.speedOfLight.percent())
            row.speedOfLightPct = *pct;
        if (m.speedOfLight.isKnown())
            row.speedOfLight = m.speedOfLight.reportText();
        for (const QString &f : m.flags)
            if (!HackClasses::isInformational(f) && !row.flags.contains(f))
                row.flags << f;
        if (m.verification.inputMutated && !row.flags.contains(u"input_mutated"_s))
            row.flags << u"input_mutated"_s;
        if (m.verdict == Verdict::Incorrect) {
            const VerifyRecord *t3 = log.find(pair.id, VerifyRun::Tolerance3);
            const VerifyRecord *t2 = log.find(pair.id, VerifyRun::Tolerance2);
            if (t3 && t3->result.isCorrect())
                row.passesAt = tolText(1e-3);
            else if (t2 && t2->result.isCorrect())
                row.passesAt = tolText(1e-2);
            else if (t2)
                row.passesAt = u"no"_s;
            if (row.passesAt.startsWith(u"1e"))
                row.flags << QString::fromLatin1(kLooseToleranceFlag);
        }
        heldOut(pair, imported, log, row);
        if (row.heldOutFailed)
            row.flags << QString::fromLatin1(kShapeSpecificFlag);
        row.hacks = HackClasses::of(row.flags);
        row.kernels = kernelsText(m);
        for (VerifyRun run :
             {VerifyRun::Main, VerifyRun::Tolerance3, VerifyRun::Tolerance2, VerifyRun::HeldOut1, VerifyRun::HeldOut2})
            if (const VerifyRecord *r = log.find(pair.id, run))
                row.timeS += runTime(*r);
        if (row.claimed) {
            const double high = row.speedupHigh.value_or(row.speedup.value_or(0));
            row.claim = row.correct() && !row.flagged() && high >= *row.claimed ? VerifyRow::Claim::Holds
                                                                                : VerifyRow::Claim::DoesNotHold;
        }
        rows << row;
    }
    return rows;
}

VerifyStats VerifyTable::stats(const QList<double> &speedups, int total, int correct)
{
    VerifyStats s;
    s.total = total;
    s.correct = correct;
    QList<double> v;
    for (double x : speedups)
        if (std::isfinite(x) && x > 0)
            v << x;
    s.faster = int(std::count_if(v.begin(), v.end(), [](double x) { return x > 1; }));
    if (v.isEmpty())
        return s;
    std::sort(v.begin(), v.end());
    double sum = 0, logSum = 0;
    for (double x : v) {
        sum += x;
        logSum += std::log(x);
    }
    s.mean = sum / double(v.size());
    s.geomean = std::exp(logSum / double(v.size()));
    const qsizetype n = v.size();
    s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    s.max = v.last();
    return s;
}

VerifySummary VerifyTable::summary(const QList<VerifyRow> &rows)
{
    VerifySummary s;
    s.pairs = int(rows.size());
    QList<double> all, unflagged, claims;
    int total = 0, correct = 0, totalUnflagged = 0, correctUnflagged = 0;
    for (const VerifyRow &r : rows) {
        if (r.state == VerifyRow::State::NotImported)
            ++s.notImported;
        if (r.state == VerifyRow::State::NotRun)
            ++s.notRun;
        if (!r.measured())
            continue;
        ++total;
        if (r.flagged())
            ++s.flagged;
        else
            ++totalUnflagged;
        if (r.correct()) {
            ++correct;
            all << r.speedup.value_or(NAN);
            if (!r.flagged()) {
                ++correctUnflagged;
                unflagged << r.speedup.value_or(NAN);
            }
        }
        if (r.claimed) {
            ++s.withClaim;
            claims << *r.claimed;
            if (r.claim == VerifyRow::Claim::Holds)
                ++s.claimsHold;
        }
    }
    s.all = stats(all, total, correct);
    s.unflagged = stats(unflagged, totalUnflagged, correctUnflagged);
    s.claimed = stats(claims, s.withClaim, s.withClaim);
    return s;
}

QList<VerifyRow> VerifyTable::reportOrder(QList<VerifyRow> rows)
{
    const auto rank = [](const VerifyRow &r) { return r.flagged() ? 0 : !r.measured() ? 3 : !r.correct() ? 1 : 2; };
    std::stable_sort(rows.begin(), rows.end(), [&](const VerifyRow &a, const VerifyRow &b) {
        if (rank(a) != rank(b))
            return rank(a) < rank(b);
        return a.speedup.value_or(0) > b.speedup.value_or(0);
    });
    return rows;
}

} // namespace kforge
