// The session report (HTML and Markdown) and the training data, from a session with a round the way
// RoundRunner stores one: a prompt, answers that parse or not, variants that pass, fail, or are held for
// review; and the kforge-cli report / dataset / export commands on such sessions.
#include "exportfixture.h"

#include "core/export/markdownhtml.h"
#include "core/export/reportinput.h"
#include "core/export/reportwriter.h"
#include "core/export/speedupchartsvg.h"
#include "core/export/trainingdata.h"
#include "core/export/unifieddiff.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

const char *kGoodAnswer = R"(## 1. Performance analysis
The reference spends 3.0 ms materialising an N x N diagonal matrix and running SGEMM: N times more work than needed.

## 2. Algorithm design
Scale each row of B by A[i] in one pass with float4 loads, memory-bound at 3 x 64 MiB.

## 3. Code
```cuda
#include "kforge/kernel.h"
__global__ void scale_rows_answer(const float *a, const float *b, float *c, int64_t n, int64_t m)
{
    const int64_t i = blockIdx.y, j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (j < m) c[i * m + j] = a[i] * b[i * m + j];
}
KF_ENTRY(in, nin, out, nout, params, stream)
{
    const int64_t n = in[1].shape[0], m = in[1].shape[1];
    scale_rows_answer<<<dim3((unsigned)((m + 255) / 256), (unsigned)n), 256, 0, stream>>>(
        (const float *)in[0].data, (const float *)in[1].data, (float *)out[0].data, n, m);
    return cudaGetLastError();
}
```
)";

struct Built {
    qint64 fast = 0;   // correct, 6x
    qint64 held = 0;   // correct, 41x, held for review
    qint64 wrong = 0;  // incorrect
    qint64 broken = 0; // compile error
    qint64 roundId = 0;
};

// A session on diag_matmul with one round of five answers.
bool makeRoundSession(SessionStore &store, const QString &path, Built *b, QString *error)
{
    if (!test::makeSession(store, path, u"diag_matmul"_s, {}, error))
        return false;
    const qint64 ref = store.population().reference()->id;
    b->roundId = store.rounds().add(QJsonObject{{u"candidates"_s, 5}});
    RoundUsage usage;
    usage.requests = 5;
    usage.promptTokens = 5000;
    usage.completionTokens = 4000;
    store.rounds().addUsage(b->roundId, usage);
    store.rounds().setState(b->roundId, RoundState::Finished);
    PromptRecord p;
    p.roundId = b->roundId;
    p.kind = u"contrastive"_s;
    p.templateName = u"contrastive"_s;
    p.rendered = u"Task: diag(A) @ B ... Exemplar #1 (1.00x) ... write a faster kernel."_s;
    p.exemplarIds = {ref};
    const qint64 promptId = store.exchanges().addPrompt(p);

    const auto answer = [&](const QString &raw, const QString &status) {
        ResponseRecord r;
        r.promptId = promptId;
        r.rawText = raw;
        r.parseStatus = status;
        r.model = u"test-model-7b"_s;
        r.finishStatus = u"stop"_s;
        r.promptTokens = 1000;
        r.completionTokens = 800;
        return store.exchanges().addResponse(r);
    };
    const auto variant = [&](qint64 responseId, const QString &source, const QString &analysis, const QString &design) {
        Variant v;
        v.origin = VariantOrigin::Model;
        v.roundId = b->roundId;
        v.promptId = promptId;
        v.responseId = responseId;
        v.parentIds = {ref};
        return store.variants().add(v, VariantTexts{source, analysis, design});
    };
    const QString good = QString::fromUtf8(kGoodAnswer);
    const QString code = good.section(u"```cuda\n"_s, 1).section(u"```"_s, 0, 0);
    const QString analysis =
        u"The reference spends 3.0 ms materialising an N x N diagonal matrix and running SGEMM: N times more work than needed."_s;
    const QString design = u"Scale each row of B by A[i] in one pass with float4 loads, memory-bound at 3 x 64 MiB."_s;
    const QJsonObject device = test::h200Device();
    const QStringList flags{u"-O3"_s, u"-arch=sm_90"_s, u"-lcublas"_s};

    b->fast = variant(answer(good, u"ok"_s), code, analysis, design);
    store.evaluations().add(Evaluation::fromResult(b->fast, test::correctResult(3.0, 0.5), device, flags, u"13.0.88"_s));
    b->held = variant(answer(good + u"\n(faster still)"_s, u"ok"_s), code + u"// unrolled\n"_s, analysis, design);
    store.evaluations().add(
        Evaluation::fromResult(b->held, test::correctResult(3.0, 3.0 / 41.0), device, flags, u"13.0.88"_s));
    b->wrong = variant(answer(good + u"\n(off by one)"_s, u"ok"_s), QString(code).replace(u"a[i] *"_s, u"a[i + 1] *"_s),
                       analysis, design);
    QJsonObject wrong = test::correctResult(3.0, 0.4);
    wrong[u"verdict"_s] = u"incorrect"_s;
    store.evaluations().add(Evaluation::fromResult(b->wrong, wrong, device, flags, u"13.0.88"_s));
    b->broken = variant(answer(good + u"\n(typo)"_s, u"ok"_s),
                        u"#include \"kforge/kernel.h\"\nKF_ENTRY(a, b, c, d, e, f) { return x; }\n"_s, analysis, design);
    store.evaluations().add(Evaluation::fromResult(
        b->broken, QJsonObject{{u"verdict"_s, u"compile_error"_s}, {u"message"_s, u"identifier \"x\" is undefined"_s}},
        device, flags, u"13.0.88"_s));
    store.variants().setStatus(b->broken, VariantStatus::Failed, u"compile error"_s);
    answer(u"I am not sure what you mean. Could you clarify the task?"_s, u"failed"_s);
    return store.population().size() == 7;
}

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

QJsonObject parseLine(const QByteArray &line)
{
    return QJsonDocument::fromJson(line).object();
}

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void unifiedDiff();
    void chartTicks();
    void chart();
    void htmlReport();
    void markdownReport();
    void hottestLinesOfTheBest();
    void analysisMarkdown_data();
    void analysisMarkdown();
    void analysisMarkdownInReport();
    void datasetFilters();
    void datasetDegenerate();
    void cliReport();
    void cliDataset();
    void cliExport();
    void cliExportModelNew();

private:
    Run cli(const QStringList &args);
    QTemporaryDir m_dir;
    QString m_session;
    Built m_built;
};

void TestReport::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_session = m_dir.filePath(u"round.kforge"_s);
    SessionStore store;
    QString error;
    QVERIFY2(makeRoundSession(store, m_session, &m_built, &error), qPrintable(error + store.errorString()));
    QVERIFY(store.population().find(m_built.held)->suspicious);
    QVERIFY(!store.population().find(m_built.fast)->suspicious);
}

void TestReport::unifiedDiff()
{
    const auto d = UnifiedDiff::compute(u"a\nb\nc\nd\n"_s, u"a\nB\nc\nd\ne\n"_s, u"old"_s, u"new"_s);
    QCOMPARE(UnifiedDiff::toText(d), u"--- old\n+++ new\n@@ -1,4 +1,5 @@\n a\n-b\n+B\n c\n d\n+e\n"_s);
    QCOMPARE(UnifiedDiff::count(d, UnifiedDiff::Kind::Added), 2);
    QVERIFY(UnifiedDiff::compute(u"same\n"_s, u"same"_s, u"a"_s, u"b"_s).isEmpty());
}

void TestReport::chartTicks()
{
    QCOMPARE(SpeedupChartSvg::ticks(0.8, 60, true), (QList<double>{1, 2, 5, 10, 20, 50}));
    QCOMPARE(SpeedupChartSvg::ticks(0, 4.5, false), (QList<double>{0, 1, 2, 3, 4}));
    QCOMPARE(SpeedupChartSvg::ticks(0.01, 10000, true), (QList<double>{0.01, 0.1, 1, 10, 100, 1000, 10000}));
}

void TestReport::chart()
{
    QList<ChartPoint> pts{{1, u"reference"_s, 0, ChartPoint::State::Reference, 1.0},
                          {2, u"a"_s, 1, ChartPoint::State::Correct, 6.0},
                          {3, u"b<x>"_s, 1, ChartPoint::State::Failed, std::nullopt},
                          {4, QString(), 2, ChartPoint::State::Held, 41.0},
                          {5, QString(), 2, ChartPoint::State::Correct, 9.0}};
    const QString svg = SpeedupChartSvg::svg(pts);
    QFile artifact(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/export-chart.svg"));
    if (artifact.open(QIODevice::WriteOnly))
        artifact.write(svg.toUtf8());
    QVERIFY(svg.startsWith(u"<svg xmlns=\"http://www.w3.org/2000/svg\""_s));
    QCOMPARE(svg.count(u"<circle class="_s), 4);
    QCOMPARE(svg.count(u"<g class=\"failed\">"_s), 1);
    QVERIFY(svg.contains(u"#3 b&lt;x&gt;, round 1: failed"_s));
    QVERIFY(svg.contains(u"#4, round 2: 41.0x, held for review"_s));
    QVERIFY(svg.contains(u">R1<"_s) && svg.contains(u">R2<"_s));
    QVERIFY(svg.contains(u"(log scale)"_s)); // 41 / 1 spans more than 20x
    // The best-so-far line steps at #2 (6x) and ends at 9x, never at the held 41x.
    const QString line = QRegularExpression(u"class=\"best-so-far\" points=\"([^\"]+)\""_s).match(svg).captured(1);
    QCOMPARE(line.split(u' ').size(), 6); // 1x, up to 6x, at 6x until #5, up to 9x, end
    QCOMPARE(svg.count(u"<svg"_s), 1);
    QCOMPARE(svg.count(u"</svg>"_s), 1);
}

void TestReport::htmlReport()
{
    SessionStore store;
    QVERIFY(store.open(m_session));
    QString error;
    const auto report = ReportSource::build(store, 5, &error);
    QVERIFY2(report, qPrintable(error));
    QCOMPARE(report->best.size(), 2); // fast and held; wrong and broken are not correct
    QCOMPARE(report->best.front().variant.id, m_built.held);
    QCOMPARE(report->rounds.size(), 1);
    QCOMPARE(report->rounds.front().variants, 4);
    QCOMPARE(report->rounds.front().correct, 2);
    QCOMPARE(report->gpu, u"NVIDIA H200"_s);

    const QString html = ReportWriter::html(*report);
    QVERIFY(html.startsWith(u"<!DOCTYPE html>"_s));
    // Kept for a human to look at.
    QFile artifact(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/export-report.html"));
    if (artifact.open(QIODevice::WriteOnly))
        artifact.write(html.toUtf8());
    QVERIFY(html.contains(u"<svg"_s));
    QVERIFY(html.contains(u"class=\"best-so-far\""_s));
    // Self-contained: no script, no stylesheet or image fetched from anywhere.
    QVERIFY(!html.contains(u"<script"_s, Qt::CaseInsensitive));
    QVERIFY(!html.contains(u"<link"_s, Qt::CaseInsensitive));
    QVERIFY(!html.contains(u"src="_s, Qt::CaseInsensitive));
    QVERIFY(!html.contains(QRegularExpression(u"href=\"(?!#)"_s)));
    QVERIFY(!html.contains(u"url("_s));
    // The diff against the reference, coloured per line, for each of the best variants.
    QCOMPARE(html.count(u"<pre class=\"diff\">"_s), 2);
    QVERIFY(html.contains(u"<span class=\"h\">--- reference.cu</span>"_s));
    QVERIFY(html.contains(u"<span class=\"a\">+__global__ void scale_rows_answer"_s));
    QVERIFY(html.contains(u"<span class=\"r\">-#include &lt;cublas_v2.h&gt;</span>"_s));
    QVERIFY(html.contains(u"<span class=\"a\">+// unrolled</span>"_s));
    // Metrics and the model's words.
    QVERIFY(html.contains(u"41.0x"_s));
    QVERIFY(html.contains(u"6.00x"_s));
    QVERIFY(html.contains(u"held for review"_s));
    QVERIFY(html.contains(u"80.0% of the roofline bound"_s));
    QVERIFY(html.contains(u"materialising an N x N diagonal matrix"_s));
    QVERIFY(html.contains(u"Scale each row of B by A[i]"_s));
    QVERIFY(html.contains(u"test-model-7b"_s));
    // Counted as the window counts them: every row of the Variants table, the reference included.
    QVERIFY(html.contains(u"7: the reference and 6 candidates (2 correct, 2 failed, 2 not evaluated)"_s));
    // The two times by the names every panel uses, in the one unit policy.
    QVERIFY(html.contains(u"<td>Event time (median), reference</td>"_s));
    QVERIFY(html.contains(u"<td>Event time (median), this variant</td>"_s));
    QVERIFY(!html.contains(u"<td>Kernel time</td>"_s));
    QVERIFY(html.contains(u"5 requests, 5000 prompt + 4000 completion tokens"_s));
    // Well formed enough: every opened block closes.
    for (const QString &tag : {u"article"_s, u"section"_s, u"table"_s, u"pre"_s, u"details"_s, u"div"_s})
        QCOMPARE(html.count(u"<"_s + tag + u'>') + html.count(u"<"_s + tag + u' '), html.count(u"</"_s + tag + u'>'));
}

void TestReport::markdownReport()
{
    SessionStore store;
    QVERIFY(store.open(m_session));
    QString error;
    const auto report = ReportSource::build(store, 1, &error);
    QVERIFY(report);
    QCOMPARE(report->best.size(), 1);
    const QString md = ReportWriter::markdown(*report);
    QVERIFY(md.startsWith(u"# diag(A) @ B (`diag_matmul`)"_s));
    QVERIFY(md.contains(u"```diff\n--- reference.cu\n+++ variant_"_s));
    QVERIFY(md.contains(u"+__global__ void scale_rows_answer"_s));
    QVERIFY(md.contains(u"| Variant | Round | Verdict | Speedup |"_s));
    QVERIFY(md.contains(u"compile_error"_s));
    QVERIFY(md.contains(u"#### The model's analysis"_s));
    QVERIFY(!md.contains(u"<svg"_s));
}

void TestReport::hottestLinesOfTheBest()
{
    // A copy of the session where the fast variant was re-measured with the source-level pass.
    const QString path = m_dir.filePath(u"profiled.kforge"_s);
    QFile::remove(path);
    QVERIFY(QFile::copy(m_session, path));
    SessionStore store;
    QVERIFY(store.open(path));
    const QString source = store.variants().source(m_built.fast);
    const QStringList lines = source.split(u'\n');
    const int storeLine = int(lines.indexOf(QRegularExpression(u"\\s*if \\(j < m\\).*"_s))) + 1; // the load and store
    QVERIFY(storeLine > 0);
    QJsonObject result = test::correctResult(3.0, 0.5);
    const auto pc = [](int offset, int samples, const QString &stall, int line) {
        return QJsonObject{{u"offset"_s, offset},
                           {u"samples"_s, samples},
                           {u"stalls"_s, QJsonObject{{stall, samples}}},
                           {u"file"_s, u"/tmp/eval/candidate.cu"_s},
                           {u"line"_s, line}};
    };
    result.insert(u"source_profile"_s,
                  QJsonObject{{u"status"_s, u"ok"_s},
                              {u"kernels"_s,
                               QJsonArray{QJsonObject{{u"name"_s, u"_Z17scale_rows_answerPKfS0_Pfll"_s},
                                                      {u"side"_s, u"candidate"_s},
                                                      {u"samples"_s, 1000},
                                                      {u"pcs"_s, QJsonArray{pc(0x100, 700, u"long_scoreboard"_s, storeLine),
                                                                            pc(0x40, 300, u"wait"_s, storeLine - 1)}}}}}});
    QVERIFY(store.evaluations().add(Evaluation::fromResult(m_built.fast, result, test::h200Device(), {}, u"13.0.88"_s)));
    QString error;
    const auto report = ReportSource::build(store, 5, &error);
    QVERIFY2(report, qPrintable(error));
    const ReportDetail *fast = nullptr;
    for (const ReportDetail &d : report->best)
        if (d.variant.id == m_built.fast)
            fast = &d;
    QVERIFY(fast);
    QCOMPARE(fast->hotLines.size(), 2);
    QCOMPARE(fast->hotLines.first(),
             u"line %1 (`%2`), 70% of samples, long scoreboard: waiting on a global or local memory load (L1TEX)"_s
                 .arg(storeLine)
                 .arg(lines.at(storeLine - 1).trimmed()));
    const QString html = ReportWriter::html(*report);
    QVERIFY(html.contains(u"<tr><td>Hottest lines</td><td>line %1 (`"_s.arg(storeLine)));
    QVERIFY(html.contains(u"70% of samples, long scoreboard"_s));
    QVERIFY(ReportWriter::markdown(*report).contains(u"| Hottest lines | line %1"_s.arg(storeLine)));
    // Variants measured without the pass have no such row.
    for (const ReportDetail &d : report->best)
        if (d.variant.id != m_built.fast)
            QVERIFY(d.hotLines.isEmpty());
}

void TestReport::analysisMarkdown_data()
{
    QTest::addColumn<QString>("markdown");
    QTest::addColumn<QStringList>("present");
    QTest::addColumn<QStringList>("absent");
    QTest::newRow("emphasis") << u"The reference is **memory-bound**, not *compute-bound*."_s
                              << QStringList{u"<strong>memory-bound</strong>"_s, u"<em>compute-bound</em>"_s}
                              << QStringList{u"**"_s};
    QTest::newRow("list") << u"Changes:\n- float4 loads\n- one block per row\n"_s
                          << QStringList{u"<ul>"_s, u"<li>float4 loads</li>"_s, u"<li>one block per row</li>"_s}
                          << QStringList{u"- float4"_s};
    QTest::newRow("code") << u"Use `__ldg` here:\n\n```cuda\nfloat x = __ldg(&a[i]);\n```\n"_s
                          << QStringList{u"<code>__ldg</code>"_s,
                                         u"<pre><code class=\"language-cuda\">float x = __ldg(&amp;a[i]);"_s}
                          << QStringList{u"```"_s};
    QTest::newRow("table") << u"| kernel | ms |\n|---|---|\n| ref | 3.0 |\n"_s
                           << QStringList{u"<table>"_s, u"<th>kernel</th>"_s, u"<td>3.0</td>"_s} << QStringList{};
    // Raw HTML from the model is text, never markup.
    QTest::newRow("script") << u"Faster <script>alert(1)</script> now"_s
                            << QStringList{u"&lt;script&gt;alert(1)&lt;/script&gt;"_s} << QStringList{u"<script"_s};
    QTest::newRow("html block") << u"<div onclick=\"steal()\">x</div>\n"_s << QStringList{u"&lt;div onclick="_s}
                                << QStringList{u"<div"_s};
    QTest::newRow("img onerror") << u"<img src=x onerror=alert(1)>"_s << QStringList{u"&lt;img"_s}
                                 << QStringList{u"<img src=x"_s};
    // Links keep only harmless targets.
    QTest::newRow("https link") << u"See [the guide](https://docs.nvidia.com/cuda/)."_s
                                << QStringList{u"<a href=\"https://docs.nvidia.com/cuda/\">the guide</a>"_s}
                                << QStringList{};
    QTest::newRow("javascript link") << u"[click](javascript:alert(document.cookie))"_s
                                     << QStringList{u"<a href=\"#\">click</a>"_s} << QStringList{u"javascript"_s};
    QTest::newRow("JavaScript link, spaced")
        << u"[click]( JaVaScRiPt:alert(1) )"_s << QStringList{u"<a href=\"#\">click</a>"_s} << QStringList{u"alert"_s};
    QTest::newRow("entity-encoded scheme")
        << u"[x](&#106;avascript:alert(1))"_s << QStringList{u"<a href=\"#\">x</a>"_s} << QStringList{u"avascript"_s};
    QTest::newRow("data link") << u"[x](data:text/html;base64,PHNjcmlwdD4=)"_s << QStringList{u"<a href=\"#\">x</a>"_s}
                               << QStringList{u"data:"_s};
    QTest::newRow("autolink") << u"<javascript:alert(1)>"_s << QStringList{} << QStringList{u"href=\"javascript"_s};
    // Images fetch nothing: the report is self-contained.
    QTest::newRow("image") << u"![roofline](https://example.com/roofline.png)"_s
                           << QStringList{u"<img src=\"\" alt=\"roofline\""_s} << QStringList{u"example.com"_s};
}

void TestReport::analysisMarkdown()
{
    QFETCH(QString, markdown);
    QFETCH(QStringList, present);
    QFETCH(QStringList, absent);
    const QString html = MarkdownHtml::toHtml(markdown);
    for (const QString &p : std::as_const(present))
        QVERIFY2(html.contains(p), qPrintable(u"missing %1 in: %2"_s.arg(p, html)));
    for (const QString &a : std::as_const(absent))
        QVERIFY2(!html.contains(a, Qt::CaseInsensitive), qPrintable(u"unexpected %1 in: %2"_s.arg(a, html)));
}

void TestReport::analysisMarkdownInReport()
{
    SessionStore store;
    QVERIFY(store.open(m_session));
    QString error;
    auto report = ReportSource::build(store, 5, &error);
    QVERIFY2(report, qPrintable(error));
    QVERIFY(!report->best.isEmpty());
    report->best.front().analysis =
        u"The reference is **memory-bound**:\n\n- it writes an N x N matrix\n- <b>then</b> runs SGEMM\n"_s;
    report->best.front().design = u"[read more](javascript:alert(1)) and `float4` loads"_s;
    const QString html = ReportWriter::html(*report);
    QFile artifact(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/export-report-markdown.html"));
    if (artifact.open(QIODevice::WriteOnly))
        artifact.write(html.toUtf8());
    QVERIFY(html.contains(u"<div class=\"md\"><p>The reference is <strong>memory-bound</strong>:</p>"_s));
    QVERIFY(html.contains(u"<li>it writes an N x N matrix</li>"_s));
    QVERIFY(html.contains(u"&lt;b&gt;then&lt;/b&gt;"_s));
    QVERIFY(html.contains(u"<code>float4</code>"_s));
    const qsizetype md = html.indexOf(u"<div class=\"md\">"_s);
    QVERIFY(!html.mid(md, html.indexOf(u"</div>"_s, md) - md).contains(u"**"_s)); // (the sources have their `void **`)
    QVERIFY(!html.contains(u"javascript"_s, Qt::CaseInsensitive));
    QVERIFY(!html.contains(u"<script"_s, Qt::CaseInsensitive));
    QVERIFY(html.contains(u"Content-Security-Policy"_s));
    for (const QString &tag : {u"div"_s, u"ul"_s, u"p"_s})
        QCOMPARE(html.count(u"<"_s + tag + u'>') + html.count(u"<"_s + tag + u' '), html.count(u"</"_s + tag + u'>'));
}

void TestReport::datasetFilters()
{
    SessionStore store;
    QVERIFY(store.open(m_session));
    DatasetStats stats;
    const QList<QJsonObject> all = TrainingData::records(store, {}, &stats);
    // Five answers; the one held for review is left out by default.
    QCOMPARE(stats.answers, 5);
    QCOMPARE(all.size(), 4);
    QCOMPARE(stats.suspicious, 1);
    QHash<QString, int> verdicts;
    for (const auto &r : all)
        ++verdicts[r.value(u"verdict"_s).toString()];
    QCOMPARE(verdicts.value(u"correct"_s), 1);
    QCOMPARE(verdicts.value(u"incorrect"_s), 1);
    QCOMPARE(verdicts.value(u"compile_error"_s), 1);
    QCOMPARE(verdicts.value(u"parse_failed"_s), 1);

    const QJsonObject &first = all.front();
    const QJsonArray messages = first.value(u"messages"_s).toArray();
    QCOMPARE(messages.size(), 3);
    QCOMPARE(messages[0].toObject().value(u"role"_s).toString(), u"system"_s);
    QVERIFY(!messages[0].toObject().value(u"content"_s).toString().isEmpty());
    QCOMPARE(messages[1].toObject().value(u"role"_s).toString(), u"user"_s);
    QVERIFY(messages[1].toObject().value(u"content"_s).toString().startsWith(u"Task: diag(A) @ B"_s));
    QCOMPARE(messages[2].toObject().value(u"role"_s).toString(), u"assistant"_s);
    QCOMPARE(messages[2].toObject().value(u"content"_s).toString(), QString::fromUtf8(kGoodAnswer));
    QCOMPARE(first.value(u"variant_id"_s).toInteger(), m_built.fast);
    QCOMPARE(first.value(u"speedup"_s).toDouble(), 6.0);
    QCOMPARE(first.value(u"round"_s).toInt(), 1);
    QCOMPARE(first.value(u"model"_s).toString(), u"test-model-7b"_s);
    QVERIFY(first.value(u"parsed"_s).toObject().value(u"code"_s).toString().contains(u"scale_rows_answer"_s));
    QVERIFY(first.value(u"parsed"_s).toObject().value(u"analysis"_s).toString().contains(u"diagonal matrix"_s));
    // The unparseable answer is parsed again and keeps its raw text.
    for (const auto &r : all)
        if (r.value(u"verdict"_s).toString() == u"parse_failed"_s) {
            QVERIFY(r.value(u"variant_id"_s).isNull());
            QCOMPARE(r.value(u"parsed"_s).toObject().value(u"status"_s).toString(), u"failed"_s);
        }

    stats = {};
    QCOMPARE(TrainingData::records(store, DatasetFilter{true, std::nullopt, false}, &stats).size(), 1);
    QCOMPARE(stats.notCorrect, 3);
    QCOMPARE(TrainingData::records(store, DatasetFilter{true, std::nullopt, true}, nullptr).size(), 2);
    QCOMPARE(TrainingData::records(store, DatasetFilter{false, 10.0, true}, nullptr).size(), 1);
    QCOMPARE(TrainingData::records(store, DatasetFilter{false, 10.0, false}, nullptr).size(), 0);
    QCOMPARE(TrainingData::records(store, DatasetFilter{false, 5.0, false}, nullptr).size(), 1);
    QCOMPARE(TrainingData::records(store, DatasetFilter{false, std::nullopt, true}, nullptr).size(), 5);
}

void TestReport::datasetDegenerate()
{
    // conv3d_groupnorm_min_clamp is flagged degenerate: its correct answers are left out unless asked for.
    SessionStore store;
    QString error;
    QVERIFY2(test::makeSession(store, m_dir.filePath(u"degenerate.kforge"_s), u"conv3d_groupnorm_min_clamp"_s, {}, &error),
             qPrintable(error));
    PromptRecord p;
    p.kind = u"contrastive"_s;
    p.rendered = u"make it faster"_s;
    p.roundId = store.rounds().add({});
    const qint64 promptId = store.exchanges().addPrompt(p);
    ResponseRecord r;
    r.promptId = promptId;
    r.rawText = u"Analysis: the output is constant.\n```cuda\nKF_ENTRY(a,b,c,d,e,f){return 0;}\n```"_s;
    r.parseStatus = u"partial"_s;
    const qint64 responseId = store.exchanges().addResponse(r);
    Variant v;
    v.origin = VariantOrigin::Model;
    v.promptId = promptId;
    v.responseId = responseId;
    v.roundId = p.roundId;
    const qint64 id = store.variants().add(v, VariantTexts{u"KF_ENTRY(a,b,c,d,e,f){return 0;}"_s, {}, {}});
    QVERIFY(store.evaluations().add(
        Evaluation::fromResult(id, test::correctResult(5.0, 0.01, {u"degenerate_output"_s}), test::h200Device())));
    DatasetStats stats;
    QCOMPARE(TrainingData::records(store, {}, &stats).size(), 0);
    QCOMPARE(stats.degenerate, 1);
    const auto with = TrainingData::records(store, DatasetFilter{false, std::nullopt, true}, nullptr);
    QCOMPARE(with.size(), 1);
    QVERIFY(with.front().value(u"degenerate"_s).toBool());
}

Run TestReport::cli(const QStringList &args)
{
#ifdef KFORGE_CLI
    const QString program = QStringLiteral(KFORGE_CLI);
#else
    const QString program;
#endif
    QProcess p;
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(120000))
        p.kill();
    p.waitForFinished();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

void TestReport::cliReport()
{
#ifndef KFORGE_CLI
    QSKIP("kforge-cli is not built");
#endif
    const QString html = m_dir.filePath(u"report.html"_s), md = m_dir.filePath(u"report.md"_s);
    const Run r = cli({u"report"_s, m_session, u"--out"_s, html, u"--markdown"_s, md});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QFile h(html), m(md);
    QVERIFY(h.open(QIODevice::ReadOnly) && m.open(QIODevice::ReadOnly));
    const QByteArray htmlText = h.readAll();
    QVERIFY(htmlText.contains("<svg") && htmlText.contains("<pre class=\"diff\">"));
    QVERIFY(m.readAll().contains("```diff"));
    QCOMPARE(cli({u"report"_s, m_dir.filePath(u"missing.kforge"_s), u"--out"_s, html}).exitCode, 1);
    QCOMPARE(cli({u"report"_s, m_session, m_session}).exitCode, 2);

    // Without --out: <session>-report.html beside the session, and where it went.
    const QFileInfo session(m_session);
    const QString beside = session.dir().filePath(session.completeBaseName() + u"-report.html"_s);
    QFile::remove(beside);
    const Run plain = cli({u"report"_s, m_session});
    QVERIFY2(plain.exitCode == 0, qPrintable(plain.out + plain.err));
    QVERIFY2(plain.out.contains(QDir::toNativeSeparators(beside)), qPrintable(plain.out));
    QFile b(beside);
    QVERIFY(b.open(QIODevice::ReadOnly));
    QVERIFY(b.readAll().contains("<svg"));
    // Markdown alone writes no HTML.
    QFile::remove(beside);
    QVERIFY(cli({u"report"_s, m_session, u"--markdown"_s, md}).exitCode == 0);
    QVERIFY(!QFile::exists(beside));
}

void TestReport::cliDataset()
{
#ifndef KFORGE_CLI
    QSKIP("kforge-cli is not built");
#endif
    const QString out = m_dir.filePath(u"data.jsonl"_s);
    const QString degenerate = m_dir.filePath(u"degenerate.kforge"_s);
    Run r = cli({u"dataset"_s, m_session, degenerate, u"--out"_s, out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(u"4 of 6 answers"_s), qPrintable(r.out));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QCOMPARE(lines.size(), 5); // four objects and the final newline
    for (const QByteArray &line : lines.mid(0, 4))
        QVERIFY(parseLine(line).contains(u"messages"_s));
    f.close();
    r = cli({u"dataset"_s, m_session, degenerate, u"--out"_s, out, u"--min-speedup"_s, u"2"_s, u"--include-suspicious"_s});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(u"3 of 6 answers"_s), qPrintable(r.out));
    QCOMPARE(cli({u"dataset"_s, m_session, u"--out"_s, out, u"--min-speedup"_s, u"fast"_s}).exitCode, 2);
}

void TestReport::cliExport()
{
#ifndef KFORGE_CLI
    QSKIP("kforge-cli is not built");
#endif
    const QString out = m_dir.filePath(u"cli-export"_s);
    // best: the 41x variant is held for review, so the 6x one.
    Run r = cli({u"export"_s, m_session, u"--variant"_s, u"best"_s, u"--format"_s, u"cmake"_s, u"--out"_s, out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY(r.out.contains(u"Variant %1 of diag_matmul"_s.arg(m_built.fast)));
    QFile kernel(out + u"/src/diag_matmul_kernel.cu"_s);
    QVERIFY(kernel.open(QIODevice::ReadOnly));
    QVERIFY(kernel.readAll().contains("scale_rows_answer"));
    kernel.close();

    // Again: identical, fine. Another variant: refused with the list of conflicts, nothing changed.
    r = cli({u"export"_s, m_session, u"--out"_s, out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains(u"identical"_s));
    r = cli({u"export"_s, m_session, u"--variant"_s, QString::number(m_built.held), u"--out"_s, out});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(u"--force"_s) && r.err.contains(u"diag_matmul_kernel.cu"_s), qPrintable(r.err));
    QVERIFY(kernel.open(QIODevice::ReadOnly));
    QVERIFY(!kernel.readAll().contains("// unrolled"));
    kernel.close();
    r = cli({u"export"_s, m_session, u"--variant"_s, QString::number(m_built.held), u"--out"_s, out, u"--force"_s});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(kernel.open(QIODevice::ReadOnly));
    QVERIFY(kernel.readAll().contains("// unrolled"));
    kernel.close();

    // A wrong variant is not exported; the license file goes on top of the sources.
    r = cli({u"export"_s, m_session, u"--variant"_s, QString::number(m_built.wrong), u"--out"_s, m_dir.filePath(u"x"_s)});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains(u"not correct"_s));
    QFile license(m_dir.filePath(u"LICENSE.txt"_s));
    QVERIFY(license.open(QIODevice::WriteOnly));
    license.write("Copyright 2026 Example Corp.\n");
    license.close();
    const QString torch = m_dir.filePath(u"cli-torch"_s);
    r = cli({u"export"_s, m_session, u"--format"_s, u"torch"_s, u"--out"_s, torch, u"--license-file"_s, license.fileName()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile setup(torch + u"/setup.py"_s);
    QVERIFY(setup.open(QIODevice::ReadOnly));
    QVERIFY(setup.readAll().startsWith("# Copyright 2026 Example Corp.\n"));

    // into: needs a CMake project; prints the lines to add.
    const QString host = m_dir.filePath(u"host"_s);
    r = cli({u"export"_s, m_session, u"--format"_s, u"into"_s, u"--out"_s, host});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(QDir().mkpath(host));
    QFile cm(host + u"/CMakeLists.txt"_s);
    QVERIFY(cm.open(QIODevice::WriteOnly));
    cm.write("project(host LANGUAGES CXX CUDA)\n");
    cm.close();
    r = cli({u"export"_s, m_session, u"--format"_s, u"into"_s, u"--out"_s, host, u"--subdir"_s, u"gpu/diag"_s});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(QFileInfo::exists(host + u"/gpu/diag/include/diag_matmul/diag_matmul.h"_s));
    QVERIFY2(r.out.contains(u"add_subdirectory(gpu/diag)"_s), qPrintable(r.out));
    QVERIFY(r.out.contains(u"# enable_language(CUDA)"_s)); // already enabled there
    QCOMPARE(cli({u"export"_s, m_session, u"--format"_s, u"zip"_s, u"--out"_s, host}).exitCode, 2);
}

// A torch session: a ModelNew variant exports as torch without --format (the module, the reference, test, benchmark,
// README), is refused as cmake; so does the session's .cu variant (as a PyTorch extension that ModelNew calls).
void TestReport::cliExportModelNew()
{
#ifndef KFORGE_CLI
    QSKIP("kforge-cli is not built");
#endif
    const QString session = m_dir.filePath(u"torch.kforge"_s);
    qint64 blocked = 0, cu = 0;
    QString source;
    {
        SessionStore store; // closed before kforge-cli opens the file
        QString error;
        QVERIFY2(test::makeSession(store, session, u"torch_row_sum"_s, {{u"blocked"_s, 3.0}, {u"warp_per_row"_s, 5.0}},
                                   &error),
                 qPrintable(error));
        blocked = test::variantByLabel(store, u"blocked"_s);
        cu = test::variantByLabel(store, u"warp_per_row"_s);
        source = store.variants().source(blocked);
    }
    QVERIFY(blocked > 0 && cu > 0 && source.contains(u"class ModelNew"_s));
    const QString out = m_dir.filePath(u"cli-modelnew"_s);
    Run r = cli({u"export"_s, session, u"--variant"_s, QString::number(blocked), u"--out"_s, out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(u"Variant %1 of torch_row_sum as 'torch'"_s.arg(blocked)), qPrintable(r.out));
    for (const QString &file : {u"model_new.py"_s, u"reference.py"_s, u"test_model_new.py"_s, u"bench_model_new.py"_s,
                                u"task.json"_s, u"README.md"_s})
        QVERIFY2(QFileInfo::exists(out + u'/' + file), qPrintable(file));
    QFile module(out + u"/model_new.py"_s);
    QVERIFY(module.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(module.readAll()), source);
    QFile readme(out + u"/README.md"_s);
    QVERIFY(readme.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(readme.readAll());
    QVERIFY2(text.contains(u"| Session | `torch.kforge` |"_s), qPrintable(text));
    QVERIFY(text.contains(u"| Speedup | 3.00x |"_s));

    r = cli({u"export"_s, session, u"--variant"_s, QString::number(blocked), u"--format"_s, u"cmake"_s, u"--out"_s,
             m_dir.filePath(u"cli-modelnew-cmake"_s)});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(u"exports as 'torch'"_s), qPrintable(r.err));

    // The .cu variant exports as torch without --format too: the kernel as a PyTorch extension called by ModelNew.
    const QString kernel = m_dir.filePath(u"cli-torch-kernel"_s);
    r = cli({u"export"_s, session, u"--variant"_s, QString::number(cu), u"--out"_s, kernel});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(u"Variant %1 of torch_row_sum as 'torch'"_s.arg(cu)), qPrintable(r.out));
    for (const QString &file : {u"model_new.py"_s, u"setup.py"_s, u"torch_row_sum_binding.cpp"_s,
                                u"torch_row_sum_kernel.cu"_s, u"include/kforge/kernel.h"_s, u"test_model_new.py"_s,
                                u"bench_model_new.py"_s, u"reference.py"_s, u"task.json"_s, u"README.md"_s})
        QVERIFY2(QFileInfo::exists(kernel + u'/' + file), qPrintable(file));
    QFile kernelReadme(kernel + u"/README.md"_s);
    QVERIFY(kernelReadme.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(kernelReadme.readAll()).contains(u"| Speedup | 5.00x |"_s));
    r = cli({u"export"_s, session, u"--variant"_s, QString::number(cu), u"--format"_s, u"cmake"_s, u"--out"_s,
             m_dir.filePath(u"cli-torch-kernel-cmake"_s)});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(u".cu kernel of a PyTorch task: it exports as 'torch'"_s), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(m_dir.filePath(u"cli-torch-kernel-cmake"_s)));
}

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
