// Issue 39: one variant shows the same registers, shared memory, bound and speed of light in the Variants table,
// the prompt and the session report, for every recorded session: the two session files in docs/ and the worker
// results recorded on an H200 in tests/fixtures/rounds/ (and the reference's without the parts where the outputs
// used to fall back each their own way). Each output is read as the user or the model reads it
// (the table's cells and tooltips, the rendered prompt, the Markdown report), and the registers and shared memory
// are those of the kernel that takes the most time (static plus dynamic shared memory: what a block holds).
#include "core/export/reportinput.h"
#include "core/export/reportwriter.h"
#include "core/optimizer/promptbuilder.h"
#include "core/session/evaluation.h"
#include "panelfixture.h"
#include "views/variants/variantsmodel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;
using namespace kforge::test;

namespace {

// What one output shows of a variant; an empty string where it shows nothing.
struct Shown {
    QString registers;
    QString sharedBytes;
    QString bound;
    QString speedOfLight; // "75.1%", "beats" (the FLOP floor), "below" (the byte floor)

    QString text() const
    {
        return u"registers %1, shared %2, bound %3, speed of light %4"_s.arg(registers, sharedBytes, bound, speedOfLight);
    }
    friend bool operator==(const Shown &, const Shown &) = default;
};

QString firstCapture(const QString &text, const QString &pattern)
{
    const QRegularExpressionMatch m = QRegularExpression(pattern, QRegularExpression::MultilineOption).match(text);
    return m.hasMatch() ? m.captured(1) : QString();
}

// The profile lines the prompt and the report write (English model input).
Shown fromProfileLines(const QStringList &lines)
{
    Shown s;
    const QString text = lines.join(u'\n');
    s.registers = firstCapture(text, uR"((\d+) registers per thread)"_s);
    s.sharedBytes = firstCapture(text, uR"((\d+) bytes (?:of )?(?:static )?shared memory)"_s);
    s.bound = firstCapture(text, uR"(^(\w+)-bound$)"_s);
    return s;
}

// The speed of light as `text` words it: a line that starts with a percentage followed by `percentOf`, or one that
// starts with the words for beating the FLOP floor or for being below the byte floor.
QString speedOfLightIn(const QString &text, const QString &percentOf, const QString &beats, const QString &below)
{
    if (const QString pct = firstCapture(text, u"^(\\S+)"_s + QRegularExpression::escape(percentOf)); !pct.isEmpty())
        return pct + u'%';
    const auto startsALine = [&text](const QString &words) {
        return QRegularExpression(u"^"_s + QRegularExpression::escape(words), QRegularExpression::MultilineOption)
            .match(text)
            .hasMatch();
    };
    return startsALine(beats) ? u"beats"_s : startsALine(below) ? u"below"_s : QString();
}

Shown fromTable(const VariantsModel &model, qint64 id)
{
    const int row = model.rowOf(id);
    const QModelIndex registers = model.index(row, VariantsModel::Registers);
    Shown s;
    s.registers = firstCapture(registers.data().toString(), uR"(^(\d+))"_s);
    s.sharedBytes = firstCapture(registers.data(Qt::ToolTipRole).toString(), uR"((\d+) B of shared memory)"_s);
    s.bound = model.index(row, VariantsModel::Bound).data().toString();
    const QString sol = model.index(row, VariantsModel::SpeedOfLight).data().toString();
    s.speedOfLight = sol == "beats FLOP floor"_L1 ? u"beats"_s : sol == "impossible"_L1 ? u"below"_s : sol;
    return s;
}

Shown fromPrompt(const SessionStore &store, qint64 id, QString *error)
{
    ContrastiveRequest request;
    request.task = store.task();
    request.exemplars = {PromptBuilder::exemplar(store, id)};
    const QString prompt = PromptBuilder::contrastive(request, error);
    QStringList lines;
    for (const QString &line : prompt.split(u'\n'))
        if (line.startsWith(u"- "_s))
            lines << line.mid(2);
    Shown s = fromProfileLines(lines);
    s.speedOfLight = speedOfLightIn(lines.join(u'\n'), u"% of speed of light"_s,
                                    u"faster than the task's declared arithmetic allows"_s,
                                    u"below the task's byte floor"_s);
    return s;
}

// The variant's section of the Markdown report; empty when the report does not detail it.
std::optional<Shown> fromReport(const QString &markdown, qint64 id)
{
    const qsizetype start = markdown.indexOf(
        QRegularExpression(u"^### #%1[ —]"_s.arg(id), QRegularExpression::MultilineOption));
    if (start < 0)
        return std::nullopt;
    const qsizetype end = markdown.indexOf(u"\n### "_s, start + 1);
    const QString section = markdown.mid(start, end < 0 ? -1 : end - start);
    Shown s = fromProfileLines(firstCapture(section, uR"(^\| Profile \| (.*) \|$)"_s).split(u"; "_s));
    s.speedOfLight = speedOfLightIn(firstCapture(section, uR"(^\| Speed of light \| (.*) \|$)"_s),
                                    u"% of the roofline bound"_s, u"beats the task's FLOP floor"_s,
                                    u"below the byte floor"_s);
    return s;
}

// The definition, from the typed trace rather than from any output: the kernel with the longest total time.
Shown heaviestKernel(const Measurement &m)
{
    Shown s;
    const TraceKernel *top = nullptr;
    for (const TraceKernel &k : m.traceSummary.candidate.kernels)
        if (!top || k.totalUs.value_or(0) > top->totalUs.value_or(0))
            top = &k;
    if (!top)
        return s;
    if (top->registers)
        s.registers = QString::number(*top->registers);
    const double shared = top->staticSmem.value_or(0) + top->dynamicSmem.value_or(0);
    if (shared > 0)
        s.sharedBytes = QString::number(qint64(shared));
    return s;
}

// Copies of the recorded sessions (opening a file may migrate it).
QStringList recordedSessions(const QTemporaryDir &dir)
{
    QStringList out;
    const QDir docs(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs"));
    for (const QString &name : docs.entryList({u"*.kforge"_s}, QDir::Files, QDir::Name)) {
        const QString copy = dir.filePath(name);
        if (QFile::copy(docs.filePath(name), copy)) {
            QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
            out << copy;
        }
    }
    return out;
}

// Every worker result recorded in tests/fixtures/rounds, as variants of a new session of their task.
QStringList recordedResults()
{
    QStringList out;
    for (const char *folder : {"results", "worker_results"}) {
        const QDir dir(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/rounds/") + QLatin1String(folder));
        for (const QString &name : dir.entryList({u"*.json"_s}, QDir::Files, QDir::Name))
            out << dir.filePath(name);
    }
    return out;
}

} // namespace

class TestMeasurementEverywhere : public QObject
{
    Q_OBJECT

    // Compares the three outputs for every evaluated variant of `store`: the disagreements, and in *compared how
    // many variants it compared.
    QStringList compareOutputs(SessionStore &store, const QString &session, int *compared)
    {
        *compared = 0;
        VariantsModel table;
        table.setStore(&store);
        QAbstractItemModelTester tester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (int row = 0; row < table.rowCount(); ++row)
            table.index(row, VariantsModel::SpeedOfLight).data(); // details are read when a row is first shown
        if (!QTest::qWaitFor([&] { return table.pendingDetails() == 0; }, 10000))
            return {u"the table did not read its details"_s};
        QString error;
        const std::optional<ReportInput> report = ReportSource::build(store, 1000, &error);
        if (!report)
            return {error};
        const QString markdown = ReportWriter::markdown(*report);

        QStringList problems;
        for (const Variant &v : store.population().variants()) {
            const auto e = store.evaluations().latest(v.id);
            if (!v.hasEvaluation() || !e)
                continue;
            const QString tag = u"%1, variant #%2 (%3)"_s.arg(QFileInfo(session).fileName()).arg(v.id).arg(v.label);
            const Shown table_ = fromTable(table, v.id);
            const Shown prompt = fromPrompt(store, v.id, &error);
            if (!error.isEmpty())
                problems << tag + u": "_s + error;
            if (!(table_ == prompt))
                problems << u"%1: table %2; prompt %3"_s.arg(tag, table_.text(), prompt.text());
            if (const std::optional<Shown> reported = fromReport(markdown, v.id); reported && !(*reported == prompt))
                problems << u"%1: report %2; prompt %3"_s.arg(tag, reported->text(), prompt.text());
            // Registers and shared memory are the longest-running kernel's, where the trace has kernels.
            const Shown defined = heaviestKernel(e->measurement());
            if (!defined.registers.isEmpty()
                && ((table_.registers != defined.registers || table_.sharedBytes != defined.sharedBytes)
                    || (prompt.registers != defined.registers || prompt.sharedBytes != defined.sharedBytes)))
                problems << u"%1: table %2; prompt %3; the longest-running kernel has %4 registers and %5 bytes of "
                            "shared memory"_s.arg(tag, table_.text(), prompt.text(), defined.registers, defined.sharedBytes);
            ++*compared;
        }
        return problems;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void sessionFiles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QStringList sessions = recordedSessions(dir);
        QCOMPARE(sessions.size(), 2); // docs/h200-diag_matmul.kforge and its GUI twin
        for (const QString &path : sessions) {
            SessionStore store;
            QVERIFY2(store.open(path), qPrintable(store.errorString()));
            int compared = 0;
            const QStringList problems = compareOutputs(store, path, &compared);
            QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
            QCOMPARE(compared, 7); // the reference, four correct candidates, two failures
        }
    }

    void recordedWorkerResults()
    {
        SessionFixture f;
        QVERIFY2(f.create(), qPrintable(f.store().errorString()));
        QList<std::pair<QString, QJsonObject>> results;
        for (const QString &path : recordedResults()) {
            QFile file(path);
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
            results.append({QFileInfo(path).completeBaseName(), QJsonDocument::fromJson(file.readAll()).object()});
            QVERIFY2(!results.constLast().second.isEmpty(), qPrintable(path));
        }
        QCOMPARE(results.size(), 8);
        // The reference's result as the worker writes it where parts are missing, which is where the table and the
        // prompt used to fall back each their own way: an "unknown" bound for the whole call (the profiler's word
        // when it lacks a time, FLOPs or bytes; the bound is then the GEMM's, which takes the time), and no trace
        // (the registers then come from the metrics pass or ptxas).
        QJsonObject noBound = results.at(7).second, noTrace = results.at(7).second;
        QVERIFY(results.at(7).first == "h200_diag_matmul_reference"_L1);
        QJsonObject roofline = noBound.value(u"roofline"_s).toObject(), profile = roofline.value(u"profile"_s).toObject();
        QJsonObject candidate = profile.value(u"candidate"_s).toObject(), total = candidate.value(u"total"_s).toObject();
        total.insert(u"bound"_s, u"unknown"_s);
        candidate.insert(u"total"_s, total);
        profile.insert(u"candidate"_s, candidate);
        roofline.insert(u"profile"_s, profile);
        noBound.insert(u"roofline"_s, roofline);
        noTrace.remove(u"trace"_s);
        results.append({u"reference, unknown bound for the call"_s, noBound});
        results.append({u"reference, no trace"_s, noTrace});

        for (const auto &[label, result] : std::as_const(results)) {
            Variant v;
            v.origin = VariantOrigin::Model;
            v.label = label;
            v.parentIds = {f.reference()};
            const qint64 id = f.store().variants().add(v, {u"// recorded\n"_s, {}, {}});
            QVERIFY(id > 0);
            QVERIFY(f.store().evaluations().add(Evaluation::fromResult(id, result, h200Device())) > 0);
        }
        int compared = 0;
        const QStringList problems = compareOutputs(f.store(), u"tests/fixtures/rounds"_s, &compared);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        QCOMPARE(compared, results.size());
    }
};

QTEST_MAIN(TestMeasurementEverywhere)
#include "tst_measurement_everywhere.moc"
