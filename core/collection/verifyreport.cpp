#include "core/collection/verifyreport.h"

#include "core/collection/speedupscattersvg.h"

#include <QStringList>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

const char *kStyle = R"(
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d1d1f; margin: 0 auto; max-width: 1400px; padding: 24px; }
h1 { font-size: 1.6em; margin-bottom: 0.1em; } .meta { color: #666; margin-top: 0; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: 4px; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f4f4f6; font-weight: 600; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.flagged td { background: #fff8ec; } tr.failed td { background: #fff3f2; } tr.missing td { color: #888; }
.badge { display: inline-block; font-size: 0.8em; padding: 0 6px; border-radius: 8px; background: #ffe9c7; color: #7a4b00; margin: 1px 2px 1px 0; }
.holds { color: #1d6b35; } .fails { color: #8f1d12; } .chart { overflow-x: auto; }
footer { color: #888; margin-top: 3em; font-size: 0.9em; }
)";

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

QString pct(int n, int of)
{
    return of ? u"%1 of %2 (%3%)"_s.arg(n).arg(of).arg(100.0 * n / of, 0, 'f', 1) : u"—"_s;
}

QString interval(const VerifyRow &r)
{
    if (!r.speedup)
        return u"—"_s;
    QString s = VerifyReport::speedupText(r.speedup);
    if (r.speedupLow && r.speedupHigh)
        s += u" <small>(%1–%2)</small>"_s.arg(*r.speedupLow, 0, 'f', 2).arg(*r.speedupHigh, 0, 'f', 2);
    return s;
}

QString csvField(const QString &v)
{
    if (!v.contains(u',') && !v.contains(u'"') && !v.contains(u'\n'))
        return v;
    QString q = v;
    q.replace(u"\""_s, u"\"\""_s);
    return u'"' + q + u'"';
}

QString number(std::optional<double> v, int precision = 4)
{
    return v && std::isfinite(*v) ? QString::number(*v, 'g', precision) : QString();
}

QString hackText(const QList<HackClass> &hacks)
{
    QStringList parts;
    for (const HackClass &h : hacks)
        parts << u"#%1 %2"_s.arg(h.number).arg(h.name);
    return parts.join(u"; "_s);
}

// The summary table: what the collection claims, and what was measured over all pairs and over unflagged ones.
QString summaryTable(const VerifySummary &s)
{
    QString h = u"<table class=\"summary\">\n<tr><th></th><th>claimed</th><th>measured, all pairs</th>"
                "<th>measured, pairs without flags</th></tr>\n"_s;
    const auto row = [&h](const QString &name, const QString &claimed, const QString &all, const QString &clean) {
        h += u"<tr><td>%1</td><td class=\"num\">%2</td><td class=\"num\">%3</td><td class=\"num\">%4</td></tr>\n"_s.arg(
            name, claimed, all, clean);
    };
    const auto sp = [](std::optional<double> v) { return VerifyReport::speedupText(v); };
    row(u"correct / total"_s, s.withClaim ? u"%1 claims"_s.arg(s.withClaim) : u"—"_s,
        u"%1 / %2"_s.arg(s.all.correct).arg(s.all.total), u"%1 / %2"_s.arg(s.unflagged.correct).arg(s.unflagged.total));
    row(u"mean speedup (correct pairs)"_s, sp(s.claimed.mean), sp(s.all.mean), sp(s.unflagged.mean));
    row(u"geometric mean"_s, sp(s.claimed.geomean), sp(s.all.geomean), sp(s.unflagged.geomean));
    row(u"median speedup"_s, sp(s.claimed.median), sp(s.all.median), sp(s.unflagged.median));
    row(u"max speedup"_s, sp(s.claimed.max), sp(s.all.max), sp(s.unflagged.max));
    row(u"faster than the reference"_s, s.withClaim ? pct(s.claimed.faster, s.claimed.total) : u"—"_s,
        pct(s.all.faster, s.all.total), pct(s.unflagged.faster, s.unflagged.total));
    return h + u"</table>\n"_s;
}

QString pairTable(const QList<VerifyRow> &rows)
{
    QString h = u"<table class=\"pairs\">\n<tr><th>pair</th><th>problem</th><th>kind</th><th>verdict</th>"
                "<th>speedup (noise interval)</th><th>claimed</th><th>claim</th><th>speed of light</th>"
                "<th>flags → hack class</th><th>passes at</th><th>held-out sizes</th><th>kernels</th>"
                "<th>time, s</th><th>cause / notes</th></tr>\n"_s;
    for (const VerifyRow &r : VerifyTable::reportOrder(rows)) {
        const QString cls = r.flagged()     ? u"flagged"_s
                            : !r.measured() ? u"missing"_s
                            : !r.correct()  ? u"failed"_s
                                            : QString();
        QString flags;
        for (const QString &f : r.flags) {
            const HackClass c = HackClasses::of(f);
            flags += u"<span class=\"badge\">%1</span>"_s.arg(esc(f))
                     + (c.number ? u" → #%1 %2<br>"_s.arg(c.number).arg(esc(c.name)) : u"<br>"_s);
        }
        QStringList notes;
        if (!r.message.isEmpty())
            notes << esc(r.message);
        for (const QString &n : r.notes)
            notes << esc(n);
        const QString claim = r.claim == VerifyRow::Claim::Holds         ? u"<span class=\"holds\">holds</span>"_s
                              : r.claim == VerifyRow::Claim::DoesNotHold ? u"<span class=\"fails\">does not hold</span>"_s
                                                                         : QString();
        h += u"<tr%1><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td class=\"num\">%6</td><td class=\"num\">%7</td>"_s.arg(
                 cls.isEmpty() ? QString() : u" class=\"%1\""_s.arg(cls), esc(r.pair), esc(r.problemOrigin),
                 esc(r.kind), esc(r.stateText()), interval(r), VerifyReport::speedupText(r.claimed))
             + u"<td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td class=\"num\">%7</td><td>%8</td></tr>\n"_s
                   .arg(claim, esc(r.speedOfLight), flags, esc(r.passesAt), esc(r.heldOut), esc(r.kernels),
                        QString::number(r.timeS, 'f', 1), notes.join(u"<br>"_s));
    }
    return h + u"</table>\n"_s;
}

} // namespace

QString VerifyReport::speedupText(std::optional<double> v)
{
    if (!v || !std::isfinite(*v))
        return u"—"_s;
    return QString::number(*v, 'f', *v >= 100 ? 0 : *v >= 10 ? 1 : 2) + u'x';
}

QString VerifyReport::html(const VerifyReportInput &in)
{
    const VerifySummary &s = in.summary;
    QString h = u"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv="
                "\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n"_s;
    h += u"<title>KForge verification: %1</title>\n<style>%2</style>\n</head>\n<body>\n"_s.arg(esc(in.collection),
                                                                                               QString::fromUtf8(kStyle));
    h += u"<header>\n<h1>Verified: %1</h1>\n<p class=\"meta\">%2 collection · %3 pairs · %4 · workers: %5 · made %6 "
         "by KForge %7</p>\n</header>\n"_s.arg(esc(in.collection), formatName(in.format))
             .arg(s.pairs)
             .arg(esc(in.device.isEmpty() ? u"GPU not recorded"_s : in.device), esc(in.workers),
                  in.generated.toUTC().toString(u"yyyy-MM-dd HH:mm 'UTC'"_s), esc(in.kforgeVersion));

    h += u"<section id=\"summary\">\n<h2>Summary</h2>\n"_s + summaryTable(s);
    h += u"<p>Claims that hold within their noise (correct, no flag, the claimed speedup within or below the measured "
         "interval): <b>%1</b>.</p>\n"_s.arg(pct(s.claimsHold, s.withClaim));
    h += u"<p>Flagged pairs: %1. Not imported: %2. Not run yet: %3. Records that could not be verified: %4.</p>\n"_s
             .arg(s.flagged)
             .arg(s.notImported)
             .arg(s.notRun)
             .arg(std::count_if(in.issues.begin(), in.issues.end(), [](const CollectionIssue &i) { return i.blocking; }));
    if (!in.tolerance.isEmpty())
        h += u"<p class=\"meta\">%1</p>\n"_s.arg(esc(in.tolerance));
    h += u"</section>\n"_s;

    QList<ScatterPoint> points;
    for (const VerifyRow &r : in.rows) {
        if (!r.measured())
            continue;
        ScatterPoint p;
        p.label = r.pair;
        p.state = !r.correct()  ? ScatterPoint::State::Failed
                  : r.flagged() ? ScatterPoint::State::Flagged
                                : ScatterPoint::State::Clean;
        p.claimed = r.claimed;
        p.measured = r.speedup;
        p.low = r.speedupLow;
        p.high = r.speedupHigh;
        points << p;
    }
    h += u"<section id=\"distribution\">\n<h2>Measured against claimed</h2>\n<div class=\"chart\">\n"_s
         + SpeedupScatterSvg::svg(points) + u"</div>\n</section>\n"_s;

    h += u"<section id=\"pairs\">\n<h2>Pairs</h2>\n<p>Flagged pairs first, then those that failed, then the rest by "
         "speedup. The noise interval combines both medians' 95% intervals; a flag names the class of reward hack it "
         "points to (KForge's catalogue of public reports).</p>\n"_s
         + pairTable(in.rows) + u"</section>\n"_s;

    QString issues;
    for (const CollectionIssue &i : in.issues)
        issues += u"<tr%1><td>%2</td><td>%3</td></tr>\n"_s.arg(i.blocking ? QString() : u" class=\"missing\""_s,
                                                               esc(i.where), esc(i.message));
    if (!issues.isEmpty())
        h += u"<section id=\"issues\">\n<h2>Records that could not be verified</h2>\n<p>Each is left out with its cause; "
             "grey rows are notes.</p>\n<table>\n<tr><th>where</th><th>cause</th></tr>\n"_s
             + issues + u"</table>\n</section>\n"_s;
    h += u"<footer>results.jsonl holds every evaluation in the stored result shape; results.csv a row per pair."
         "</footer>\n</body>\n</html>\n"_s;
    return h;
}

QStringList VerifyReport::csvHeader()
{
    return {u"pair"_s,    u"problem"_s, u"candidate"_s,   u"kind"_s,         u"level"_s,
            u"verdict"_s, u"speedup"_s, u"speedup_low"_s, u"speedup_high"_s, u"claimed_speedup"_s,
            u"claim"_s,   u"sol_pct"_s, u"flags"_s,       u"hack_classes"_s, u"passes_at"_s,
            u"heldout"_s, u"kernels"_s, u"time_s"_s,      u"cause"_s,        u"notes"_s};
}

QString VerifyReport::csv(const QList<VerifyRow> &rows)
{
    QString out = csvHeader().join(u',') + u'\n';
    for (const VerifyRow &r : rows) {
        const QStringList fields{r.pair,
                                 r.problemOrigin,
                                 r.candidate,
                                 r.kind,
                                 r.level > 0 ? QString::number(r.level) : QString(),
                                 r.stateText(),
                                 number(r.speedup),
                                 number(r.speedupLow),
                                 number(r.speedupHigh),
                                 number(r.claimed),
                                 r.claimText(),
                                 number(r.speedOfLightPct, 3),
                                 r.flags.join(u' '),
                                 hackText(r.hacks),
                                 r.passesAt,
                                 r.heldOut,
                                 r.kernels,
                                 QString::number(r.timeS, 'f', 2),
                                 r.message,
                                 r.notes.join(u"; "_s)};
        QStringList quoted;
        for (const QString &f : fields)
            quoted << csvField(f);
        out += quoted.join(u',') + u'\n';
    }
    return out;
}

} // namespace kforge
