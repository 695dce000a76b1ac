#include "verifyprint.h"

#include "core/collection/verifyreport.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge::cli {

namespace {

QString cell(const QString &text, int width)
{
    return text.size() > width ? text.left(width - 1) + u'…' : text.leftJustified(width);
}

// "N 256→193/129": the held-out sizes of a problem, both at once.
QString heldOutCell(const ImportedProblem *p, bool heldOut)
{
    if (!heldOut)
        return VerifyPrint::tr("off");
    if (!p || !p->ok())
        return u"—"_s;
    if (p->heldOut.isEmpty())
        return VerifyPrint::tr("none");
    QStringList first = p->heldOut.first().sizes.split(u", "_s);
    if (p->heldOut.size() > 1) {
        const QStringList second = p->heldOut.at(1).sizes.split(u", "_s);
        for (qsizetype i = 0; i < first.size() && i < second.size(); ++i)
            first[i] += u'/' + second.at(i).section(u'→', 1);
    }
    QString text = first.join(u", "_s);
    for (const HeldOutTask &h : p->heldOut)
        if (h.taskFolder.isEmpty())
            text += u' ' + VerifyPrint::tr("(size %1 not imported)").arg(h.index);
    return text;
}

} // namespace

QString VerifyPrint::duration(double s)
{
    const qint64 t = qint64(std::llround(std::max(0.0, s)));
    if (t >= 3600)
        return u"%1:%2:%3"_s.arg(t / 3600).arg(t / 60 % 60, 2, 10, QLatin1Char('0')).arg(t % 60, 2, 10, QLatin1Char('0'));
    return u"%1:%2"_s.arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

void VerifyPrint::issues(QTextStream &out, const QList<CollectionIssue> &issues)
{
    const auto list = [&](bool blocking, const QString &title) {
        const qsizetype n = std::count_if(issues.begin(), issues.end(),
                                          [&](const CollectionIssue &i) { return i.blocking == blocking; });
        if (n == 0)
            return;
        out << title.arg(n) << '\n';
        for (const CollectionIssue &i : issues)
            if (i.blocking == blocking)
                out << u"  %1: %2"_s.arg(i.where, i.message) << '\n';
    };
    list(true, tr("Not verified (%1): records that could not become a pair"));
    list(false, tr("Notes (%1):"));
}

void VerifyPrint::plan(QTextStream &out, const QList<CollectionPair> &pairs,
                       const QMap<QString, ImportedProblem> &problems, bool heldOut)
{
    int pairWidth = 4, problemWidth = 7;
    for (const CollectionPair &p : pairs) {
        pairWidth = std::clamp(int(p.id.size()), pairWidth, 44);
        problemWidth = std::clamp(int(p.problemKey.size()), problemWidth, 40);
    }
    out << cell(tr("pair"), pairWidth) << "  " << cell(tr("problem"), problemWidth) << "  " << cell(tr("kind"), 8)
        << "  " << cell(tr("claimed"), 8) << "  " << cell(tr("held-out sizes"), 36) << "  " << tr("import") << '\n';
    for (const CollectionPair &p : pairs) {
        const auto it = problems.constFind(p.problemKey);
        const ImportedProblem *imported = it == problems.cend() ? nullptr : &*it;
        QStringList notes = p.notes;
        QString import;
        if (!imported)
            import = tr("not imported");
        else if (!imported->ok())
            import = tr("not imported: %1: %2").arg(imported->error.step, imported->error.cause);
        else
            import = imported->reused ? tr("task kept from an earlier run") : tr("imported");
        if (imported)
            notes << imported->notes;
        if (!notes.isEmpty())
            import += u"; "_s + notes.join(u"; "_s);
        out << cell(p.id, pairWidth) << "  " << cell(p.problemKey, problemWidth) << "  " << cell(kindName(p.kind), 8)
            << "  " << cell(VerifyReport::speedupText(p.claimedSpeedup), 8) << "  "
            << cell(heldOutCell(imported, heldOut), 36) << "  " << import << '\n';
    }
}

QString VerifyPrint::progress(const VerifyRecord &r, int done, int total, double elapsedS, std::optional<double> etaS)
{
    QString verdict = r.result.verdictName();
    if (r.result.isCorrect() && std::isfinite(r.result.speedup))
        verdict += u' ' + VerifyReport::speedupText(r.result.speedup);
    const QString run = r.run == VerifyRun::Main ? QString() : u" (%1)"_s.arg(runName(r.run));
    return tr("[%1/%2] %3%4: %5 · %6 elapsed, ETA %7")
        .arg(done)
        .arg(total)
        .arg(r.pair, run, verdict, duration(elapsedS), etaS ? duration(*etaS) : u"—"_s);
}

void VerifyPrint::summary(QTextStream &out, const VerifySummary &s)
{
    const auto sp = [](std::optional<double> v) { return VerifyReport::speedupText(v); };
    const auto line = [&](const QString &label, const VerifyStats &st) {
        out << label << '\n'
            << "  "
            << tr("correct %1 of %2; speedup mean %3, geometric mean %4, median %5, max %6; faster than the "
                  "reference: %7 of %2")
                   .arg(st.correct)
                   .arg(st.total)
                   .arg(sp(st.mean), sp(st.geomean), sp(st.median), sp(st.max))
                   .arg(st.faster)
            << '\n';
    };
    line(tr("All measured pairs:"), s.all);
    line(tr("Pairs without flags:"), s.unflagged);
    if (s.withClaim)
        out << tr("Claims that hold within their noise: %1 of %2 (claimed median %3)")
                   .arg(s.claimsHold)
                   .arg(s.withClaim)
                   .arg(sp(s.claimed.median))
            << '\n';
    out << tr("Flagged: %1. Not imported: %2. Not run yet: %3.").arg(s.flagged).arg(s.notImported).arg(s.notRun) << '\n';
}

} // namespace kforge::cli
