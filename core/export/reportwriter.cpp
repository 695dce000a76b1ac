#include "core/export/reportwriter.h"

#include "core/eval/measureformat.h"
#include "core/export/exportreadme.h"
#include "core/export/markdownhtml.h"
#include "core/export/nvccflags.h"
#include "core/export/unifieddiff.h"
#include "core/task/sourcelanguage.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// "variant_12.cu", or "variant_12.py" for a torch task's ModelNew: the diff names each side in its language.
QString sourceName(const QString &stem, const QString &source)
{
    return stem + u'.' + sourceExtension(sourceLanguage(source));
}

// &, <, > and " as entities (QString::toHtmlEscaped).
QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

QString date(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(u"yyyy-MM-dd HH:mm 'UTC'"_s) : u"—"_s;
}

QString speedup(std::optional<double> s)
{
    return s ? ExportReadme::formatSpeedup(s) : u"—"_s;
}

QString ms(std::optional<double> v)
{
    return v ? ExportReadme::formatMs(v) : u"—"_s;
}

QString variantName(const ReportVariant &v)
{
    return v.label.isEmpty() ? u"#%1"_s.arg(v.id) : u"#%1 %2"_s.arg(v.id).arg(v.label);
}

// Variants as the window counts them: every row of the Variants table, the reference included (it is variant
// #1 of every session, measured like the others); correct, failed and not evaluated are said of the candidates.
struct Counts {
    int total = 0, candidates = 0, correct = 0, failed = 0, held = 0, pending = 0;
};

Counts counts(const ReportInput &r)
{
    Counts c;
    for (const auto &v : r.variants) {
        ++c.total;
        if (v.isReference())
            continue;
        ++c.candidates;
        if (v.verdict.isEmpty())
            ++c.pending;
        else if (v.isCorrect())
            ++c.correct;
        else
            ++c.failed;
        if (v.isCorrect() && v.isHeld())
            ++c.held;
    }
    return c;
}

// "7: the reference and 6 candidates (4 correct, 2 failed)".
QString variantsText(const Counts &c)
{
    QString s = c.total == c.candidates ? u"%1 candidates"_s.arg(c.candidates)
                                        : u"%1: the reference and %2 candidates"_s.arg(c.total).arg(c.candidates);
    if (c.candidates > 0)
        s += u" (%1 correct, %2 failed%3)"_s.arg(c.correct).arg(c.failed).arg(
            c.pending ? u", %1 not evaluated"_s.arg(c.pending) : QString());
    return s;
}

// The time rows of a variant, by the names every panel uses (core/eval/measureformat.h).
QList<QPair<QString, QString>> timeRows(const ReportDetail &d)
{
    QList<QPair<QString, QString>> rows;
    rows.append({TimeNames::eventTimeEnglish() + u", reference"_s, ms(d.referenceMs)});
    rows.append({TimeNames::eventTimeEnglish() + u", this variant"_s,
                 ms(d.candidateMs) + (d.candidateCv ? u" (cv %1%)"_s.arg(*d.candidateCv * 100, 0, 'f', 1) : QString())});
    if (d.candidateKernelMs)
        rows.append({TimeNames::kernelTimeEnglish() + u", this variant"_s, ms(d.candidateKernelMs)});
    return rows;
}

QString usageText(const RoundUsage &u)
{
    QString s = u"%1 requests, %2 prompt + %3 completion tokens"_s.arg(u.requests).arg(u.promptTokens).arg(u.completionTokens);
    if (u.cost > 0)
        s += u", cost %1"_s.arg(u.cost, 0, 'f', 4);
    return s;
}

// A fence longer than any backtick run inside `text`, so model output cannot close it early.
QString fence(const QString &text)
{
    int longest = 0, run = 0;
    for (const QChar c : text) {
        run = c == u'`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return QString(std::max(3, longest + 1), u'`');
}

// The same words for one variant as the prompt, the Variants table and Compare (core/eval/speedoflight.h).
QString speedOfLightText(const ReportDetail &d)
{
    return speedOfLightReportText(d.speedOfLight, d.speedOfLightPct, u"—"_s);
}

QString mdCell(QString s)
{
    return s.replace(u'|', u"\\|"_s).replace(u'\n', u' ');
}

const char *kCss = R"(
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d1d1f; margin: 0 auto; max-width: 1100px; padding: 24px; }
h1 { font-size: 1.7em; margin-bottom: 0.1em; } h1 small { color: #777; font-weight: normal; font-size: 0.6em; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: 4px; margin-top: 2em; }
h3 { margin-bottom: 0.3em; } h4 { margin: 1.2em 0 0.3em; color: #444; }
.meta { color: #666; margin-top: 0; }
table { border-collapse: collapse; margin: 0.6em 0; } th, td { border: 1px solid #ddd; padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #f4f4f6; font-weight: 600; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.figures td:first-child { color: #555; }
pre { background: #f7f7f9; border: 1px solid #e4e4e8; border-radius: 4px; padding: 10px; overflow-x: auto; font: 12.5px/1.45 ui-monospace, "DejaVu Sans Mono", monospace; }
.text { white-space: pre-wrap; background: #fcfcfd; border-left: 3px solid #c9d6f2; padding: 6px 12px; }
.md { background: #fcfcfd; border-left: 3px solid #c9d6f2; padding: 2px 12px; } .md pre { background: #f3f3f6; }
.md code { font: 0.9em ui-monospace, "DejaVu Sans Mono", monospace; }
.diff .h { color: #555; font-weight: bold; } .diff .k { color: #6a5acd; background: #f0eefc; }
.diff .a { background: #e6ffec; color: #116329; }
.diff .r { background: #ffebe9; color: #82071e; }
.badge { display: inline-block; font-size: 0.78em; padding: 1px 7px; border-radius: 9px; margin-left: 6px; vertical-align: middle; }
.badge.held { background: #fff1d6; color: #8a5a00; } .badge.ok { background: #e3f4e8; color: #1d6b35; }
.badge.warn { background: #ffe3e0; color: #8f1d12; }
.chart { overflow-x: auto; }
article { border: 1px solid #e2e2e8; border-radius: 6px; padding: 4px 18px 14px; margin: 18px 0; }
footer { color: #888; margin-top: 3em; font-size: 0.9em; }
)";

} // namespace

QList<ChartPoint> ReportWriter::chartPoints(const ReportInput &r)
{
    QList<ChartPoint> points;
    for (const auto &v : r.variants) {
        ChartPoint p;
        p.variantId = v.id;
        p.label = v.label;
        p.round = v.round;
        p.speedup = v.speedup;
        if (v.isReference())
            p.state = ChartPoint::State::Reference;
        else if (!v.isCorrect())
            p.state = ChartPoint::State::Failed;
        else
            p.state = v.isHeld() ? ChartPoint::State::Held : ChartPoint::State::Correct;
        if (v.verdict.isEmpty() && !v.isReference())
            continue; // never evaluated (still in flight when the report was made)
        points << p;
    }
    return points;
}

QString ReportWriter::html(const ReportInput &r)
{
    const Counts c = counts(r);
    const QString title = r.taskTitle.isEmpty() ? r.taskName : r.taskTitle;
    QString h;
    h += u"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         // No script runs and nothing is fetched, whatever the model's text holds.
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n"_s;
    h += u"<title>KForge report: %1</title>\n<style>%2</style>\n</head>\n<body>\n"_s.arg(esc(r.taskName),
                                                                                         QString::fromUtf8(kCss));
    h += u"<header>\n<h1>%1 <small>%2</small></h1>\n<p class=\"meta\">Session <code>%3</code> · %4 · report made %5 by KForge %6</p>\n</header>\n"_s
             .arg(esc(title), esc(r.taskName), esc(r.sessionFile), esc(r.gpu.isEmpty() ? u"GPU not recorded"_s : r.gpu),
                  date(r.generated), esc(r.kforgeVersion));
    if (r.taskDegenerate)
        h += u"<p><span class=\"badge warn\">degenerate task</span> The output of this task does not depend on its inputs, "
             "so its speedups say nothing about kernel quality.</p>\n"_s;

    h += u"<section id=\"summary\">\n<h2>Summary</h2>\n<table class=\"figures\">\n"_s;
    const auto row = [&](const QString &k, const QString &v) { h += u"<tr><td>%1</td><td>%2</td></tr>\n"_s.arg(k, v); };
    row(u"Variants"_s, esc(variantsText(c)));
    if (c.held)
        row(u"Held for review"_s, QString::number(c.held));
    if (!r.best.isEmpty()) {
        const ReportDetail &b = r.best.front();
        row(u"Best speedup"_s, u"<a href=\"#v%1\">%2</a> — %3%4"_s.arg(b.variant.id)
                                   .arg(esc(variantName(b.variant)), speedup(b.variant.speedup),
                                        b.variant.isHeld() ? u" (held for review)"_s : QString()));
    }
    row(u"Rounds"_s, QString::number(r.rounds.size()));
    row(u"Model usage"_s, esc(usageText(r.usage)));
    h += u"</table>\n</section>\n"_s;

    h += u"<section id=\"chart\">\n<h2>Speedup</h2>\n<div class=\"chart\">\n"_s + SpeedupChartSvg::svg(chartPoints(r))
         + u"</div>\n</section>\n"_s;

    if (!r.rounds.isEmpty()) {
        h += u"<section id=\"rounds\">\n<h2>Rounds</h2>\n<table>\n<tr><th>Round</th><th>State</th><th>Started</th><th>Variants</th>"
             "<th>Correct</th><th>Best</th><th>Requests</th><th>Tokens</th></tr>\n"_s;
        for (const auto &rd : r.rounds)
            h += u"<tr><td class=\"num\">%1</td><td>%2</td><td>%3</td><td class=\"num\">%4</td><td class=\"num\">%5</td>"
                 "<td class=\"num\">%6</td><td class=\"num\">%7</td><td class=\"num\">%8</td></tr>\n"_s.arg(rd.number)
                     .arg(esc(rd.state), date(rd.started))
                     .arg(rd.variants)
                     .arg(rd.correct)
                     .arg(speedup(rd.bestSpeedup))
                     .arg(rd.usage.requests)
                     .arg(rd.usage.totalTokens());
        h += u"</table>\n</section>\n"_s;
    }

    h += u"<section id=\"best\">\n<h2>Best variants</h2>\n"_s;
    if (r.best.isEmpty())
        h += u"<p>No variant besides the reference is correct yet.</p>\n"_s;
    for (const ReportDetail &d : r.best) {
        const ReportVariant &v = d.variant;
        h += u"<article id=\"v%1\">\n<h3>%2 — %3"_s.arg(v.id).arg(esc(variantName(v)), speedup(v.speedup));
        h += v.isHeld() ? u"<span class=\"badge held\">held for review: %1</span>"_s.arg(esc(v.suspiciousReason))
                        : u"<span class=\"badge ok\">correct</span>"_s;
        h += u"</h3>\n<table class=\"figures\">\n"_s;
        row(u"Origin"_s, esc(v.origin) + (v.round > 0 ? u", round %1"_s.arg(v.round) : QString())
                             + (d.model.isEmpty() ? QString() : u", written by "_s + esc(d.model)));
        QStringList lineage;
        for (const qint64 id : d.lineage) {
            const ReportVariant *s = r.find(id);
            lineage << (s ? esc(variantName(*s)) + (s->speedup ? u" ("_s + speedup(s->speedup) + u')' : QString())
                          : u"#%1"_s.arg(id));
        }
        row(u"Lineage"_s, lineage.join(u" → "_s));
        for (const auto &[name, value] : timeRows(d))
            row(esc(name), esc(value));
        row(u"Speed of light"_s, esc(speedOfLightText(d)));
        if (!d.profile.isEmpty())
            row(u"Profile"_s, esc(d.profile.join(u"; "_s)));
        if (!d.hotLines.isEmpty()) {
            QStringList lines;
            for (const QString &l : d.hotLines)
                lines << esc(l);
            row(u"Hottest lines"_s, lines.join(u"<br>"_s));
        }
        if (!d.flags.isEmpty())
            row(u"Warnings"_s, esc(d.flags.join(u", "_s)));
        row(u"Compiled with"_s, esc((d.nvccVersion.isEmpty() ? u"nvcc"_s : u"nvcc "_s + d.nvccVersion) + u": "_s
                                    + NvccFlags::portable(d.nvccFlags).join(u' ')));
        row(u"Measured"_s, date(d.evaluated));
        h += u"</table>\n"_s;
        if (!d.analysis.trimmed().isEmpty())
            h += u"<h4>The model's analysis</h4>\n<div class=\"md\">%1</div>\n"_s.arg(
                MarkdownHtml::toHtml(d.analysis.trimmed()));
        if (!d.design.trimmed().isEmpty())
            h += u"<h4>The model's design</h4>\n<div class=\"md\">%1</div>\n"_s.arg(
                MarkdownHtml::toHtml(d.design.trimmed()));
        const auto diff = UnifiedDiff::compute(r.referenceSource, d.source, sourceName(u"reference"_s, r.referenceSource),
                                               sourceName(u"variant_%1"_s.arg(v.id), d.source));
        h += u"<h4>Changes against the reference <small>(%1 lines removed, %2 added)</small></h4>\n<pre class=\"diff\">"_s
                 .arg(UnifiedDiff::count(diff, UnifiedDiff::Kind::Removed))
                 .arg(UnifiedDiff::count(diff, UnifiedDiff::Kind::Added));
        for (const auto &l : diff) {
            switch (l.kind) {
            case UnifiedDiff::Kind::Header: h += u"<span class=\"h\">"_s + esc(l.text) + u"</span>\n"_s; break;
            case UnifiedDiff::Kind::Hunk: h += u"<span class=\"k\">"_s + esc(l.text) + u"</span>\n"_s; break;
            case UnifiedDiff::Kind::Context: h += u' ' + esc(l.text) + u'\n'; break;
            case UnifiedDiff::Kind::Removed: h += u"<span class=\"r\">-"_s + esc(l.text) + u"</span>\n"_s; break;
            case UnifiedDiff::Kind::Added: h += u"<span class=\"a\">+"_s + esc(l.text) + u"</span>\n"_s; break;
            }
        }
        if (diff.isEmpty())
            h += u"(identical to the reference)\n"_s;
        h += u"</pre>\n<details><summary>Full source</summary>\n<pre>%1</pre>\n</details>\n</article>\n"_s.arg(esc(d.source));
    }
    h += u"</section>\n"_s;

    h += u"<section id=\"task\">\n<h2>The task</h2>\n<div class=\"text\">%1</div>\n"
         "<details><summary>Reference source</summary>\n<pre>%2</pre>\n</details>\n</section>\n"_s.arg(
             esc(r.taskDescription), esc(r.referenceSource));
    h += u"<footer>Made by KForge %1 from %2. Speedups are the reference's event time (median) over the variant's, measured in "
         "one process on the same inputs with the L2 cache flushed between runs.</footer>\n</body>\n</html>\n"_s.arg(
             esc(r.kforgeVersion), esc(r.sessionFile));
    return h;
}

QString ReportWriter::markdown(const ReportInput &r)
{
    const Counts c = counts(r);
    const QString title = r.taskTitle.isEmpty() ? r.taskName : r.taskTitle;
    QString m;
    m += u"# %1 (`%2`)\n\nSession `%3` · %4 · report made %5 by KForge %6\n\n"_s.arg(
        title, r.taskName, r.sessionFile, r.gpu.isEmpty() ? u"GPU not recorded"_s : r.gpu, date(r.generated),
        r.kforgeVersion);
    if (r.taskDegenerate)
        m += u"> **Degenerate task:** its output does not depend on its inputs, so its speedups say nothing about kernel quality.\n\n"_s;
    m += u"## Summary\n\n| | |\n|---|---|\n"_s;
    m += u"| Variants | %1 |\n"_s.arg(mdCell(variantsText(c)));
    if (c.held)
        m += u"| Held for review | %1 |\n"_s.arg(c.held);
    if (!r.best.isEmpty())
        m += u"| Best speedup | %1 — %2 |\n"_s.arg(mdCell(variantName(r.best.front().variant)),
                                                   speedup(r.best.front().variant.speedup));
    m += u"| Rounds | %1 |\n| Model usage | %2 |\n\n"_s.arg(r.rounds.size()).arg(usageText(r.usage));

    if (!r.rounds.isEmpty()) {
        m += u"## Rounds\n\n| Round | State | Started | Variants | Correct | Best | Requests | Tokens |\n|---:|---|---|---:|---:|---:|---:|---:|\n"_s;
        for (const auto &rd : r.rounds)
            m += u"| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 |\n"_s.arg(rd.number)
                     .arg(rd.state, date(rd.started))
                     .arg(rd.variants)
                     .arg(rd.correct)
                     .arg(speedup(rd.bestSpeedup))
                     .arg(rd.usage.requests)
                     .arg(rd.usage.totalTokens());
        m += u'\n';
    }

    m += u"## Speedup of every variant\n\n| Variant | Round | Verdict | Speedup |\n|---|---:|---|---:|\n"_s;
    for (const auto &v : r.variants)
        m += u"| %1 | %2 | %3 | %4 |\n"_s.arg(mdCell(variantName(v)), v.round > 0 ? QString::number(v.round) : u"—"_s,
                                              v.verdict.isEmpty()
                                                  ? u"not evaluated"_s
                                                  : v.verdict + (v.isHeld() ? u", held for review"_s : QString()),
                                              v.isCorrect() ? speedup(v.speedup) : u"—"_s);
    m += u"\n## Best variants\n\n"_s;
    if (r.best.isEmpty())
        m += u"No variant besides the reference is correct yet.\n\n"_s;
    for (const ReportDetail &d : r.best) {
        const ReportVariant &v = d.variant;
        m += u"### %1 — %2%3\n\n"_s.arg(variantName(v), speedup(v.speedup),
                                        v.isHeld() ? u" (held for review: %1)"_s.arg(v.suspiciousReason) : QString());
        QStringList lineage;
        for (const qint64 id : d.lineage) {
            const ReportVariant *s = r.find(id);
            lineage << (s ? variantName(*s) + (s->speedup ? u" ("_s + speedup(s->speedup) + u')' : QString())
                          : u"#%1"_s.arg(id));
        }
        m += u"| | |\n|---|---|\n"_s;
        m += u"| Origin | %1 |\n"_s.arg(mdCell(v.origin + (v.round > 0 ? u", round %1"_s.arg(v.round) : QString())
                                               + (d.model.isEmpty() ? QString() : u", written by "_s + d.model)));
        m += u"| Lineage | %1 |\n"_s.arg(mdCell(lineage.join(u" → "_s)));
        for (const auto &[name, value] : timeRows(d))
            m += u"| %1 | %2 |\n"_s.arg(mdCell(name), mdCell(value));
        m += u"| Speed of light | %1 |\n"_s.arg(mdCell(speedOfLightText(d)));
        if (!d.profile.isEmpty())
            m += u"| Profile | %1 |\n"_s.arg(mdCell(d.profile.join(u"; "_s)));
        if (!d.hotLines.isEmpty())
            m += u"| Hottest lines | %1 |\n"_s.arg(mdCell(d.hotLines.join(u"; "_s)));
        if (!d.flags.isEmpty())
            m += u"| Warnings | %1 |\n"_s.arg(mdCell(d.flags.join(u", "_s)));
        m += u"| Measured | %1 |\n\n"_s.arg(date(d.evaluated));
        if (!d.analysis.trimmed().isEmpty())
            m += u"#### The model's analysis\n\n"_s + d.analysis.trimmed() + u"\n\n"_s;
        if (!d.design.trimmed().isEmpty())
            m += u"#### The model's design\n\n"_s + d.design.trimmed() + u"\n\n"_s;
        const QString diff = UnifiedDiff::toText(UnifiedDiff::compute(r.referenceSource, d.source,
                                                                      sourceName(u"reference"_s, r.referenceSource),
                                                                      sourceName(u"variant_%1"_s.arg(v.id), d.source)));
        const QString f = fence(diff);
        m += u"#### Changes against the reference\n\n"_s + f + u"diff\n"_s + diff + f + u"\n\n"_s;
    }
    m += u"## The task\n\n"_s + r.taskDescription + u"\n\n"_s;
    const QString f = fence(r.referenceSource);
    m += u"<details><summary>Reference source</summary>\n\n"_s + f + fenceLanguage(sourceLanguage(r.referenceSource)) + u'\n'
         + r.referenceSource + (r.referenceSource.endsWith(u'\n') ? QString() : u"\n"_s) + f + u"\n\n</details>\n"_s;
    return m;
}

} // namespace kforge
