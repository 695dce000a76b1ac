// Measurement, the one typed stored evaluation: it reads real H200 results (the optimizer's fixtures and every
// evaluation of the sessions in docs/, opened through SessionStore) into the typed fields the panels, prompts and
// exports read, and writes each of them back as the identical JSON document; an edited field is written, a
// field this version does not know is kept; a fresh result from the worker client is stored in the form
// RoundRunner always stored (so old and new sessions read alike, without a schema migration).
#include "core/eval/measurement.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

const QString kSource = QStringLiteral(KFORGE_TEST_SOURCE_DIR);
const QString kResults = kSource + u"/tests/fixtures/rounds/"_s;

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    if (!doc.isObject())
        qFatal("%s: %s", qPrintable(path), qPrintable(error.errorString()));
    return doc.object();
}

QByteArray text(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// The first top-level key where two documents differ, for a failure message.
QByteArray firstDifference(const QJsonObject &a, const QJsonObject &b)
{
    QStringList keys = a.keys() + b.keys();
    keys.removeDuplicates();
    for (const QString &k : std::as_const(keys))
        if (a.value(k) != b.value(k))
            return k.toUtf8() + ": " + QJsonDocument(QJsonObject{{u"read"_s, a.value(k)}}).toJson(QJsonDocument::Compact)
                   + " written " + QJsonDocument(QJsonObject{{u"written"_s, b.value(k)}}).toJson(QJsonDocument::Compact);
    return "none";
}

} // namespace

class TestMeasurement : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fixtureRoundTripsUnchanged_data()
    {
        QTest::addColumn<QString>("path");
        int rows = 0;
        for (const QString &folder : {u"worker_results"_s, u"results"_s})
            for (const QString &name : QDir(kResults + folder).entryList({u"*.json"_s}, QDir::Files, QDir::Name)) {
                QTest::newRow(qPrintable(folder + u'/' + name)) << kResults + folder + u'/' + name;
                ++rows;
            }
        QVERIFY(rows >= 6);
    }

    void fixtureRoundTripsUnchanged()
    {
        QFETCH(QString, path);
        const QJsonObject stored = readJson(path);
        const QJsonObject written = Measurement::fromJson(stored).toJson();
        QVERIFY2(written == stored, firstDifference(stored, written));
        QCOMPARE(text(written), text(stored));
    }

    void typedFieldsOfAnH200Result()
    {
        const Measurement m = Measurement::fromJson(readJson(kResults + u"worker_results/h200_diag_matmul_r1_1.json"_s));
        QCOMPARE(m.verdict, Verdict::Correct);
        QCOMPARE(m.verdictName(), u"correct"_s);
        QCOMPARE(m.message, u"correct: 63.87x (reference 2.700 ms, candidate 0.0423 ms)"_s);
        QCOMPARE(m.candidate.medianMs, 0.04227200150489807);
        QCOMPARE(m.reference.medianMs, 2.700063943862915);
        QCOMPARE(m.candidate.runs, 354);
        QCOMPARE(m.speedup, 63.87357701882315);
        QVERIFY(m.flags.isEmpty());
        QCOMPARE(m.deviceName, u"NVIDIA H200"_s);

        // The compile object the client stored beside the worker's reply.
        QVERIFY(m.compile.present && m.compile.ok && !m.compile.cacheHit);
        QCOMPARE(m.compile.arch, u"sm_90"_s);
        QCOMPARE(m.compile.nvccVersion, u"13.0.88"_s);
        QCOMPARE(m.compile.resources.size(), 2);
        QCOMPARE(m.compile.resources.constFirst().registers, 22);
        QCOMPARE(m.compile.spillBytes(), std::optional<qint64>(0));
        QVERIFY(!m.extra.contains(u"compile"_s));

        // The profiler's roofline report and the worker's flat fields.
        const RooflineSummary &roof = m.rooflineSummary;
        QVERIFY(roof.hasReport);
        QCOMPARE(roof.bound, u"memory"_s);
        QCOMPARE(roof.achievedGbps, std::optional<double>(3847.313432835821));
        QCOMPARE(roof.peakCopyGbps, std::optional<double>(4226.424773715547));
        QCOMPARE(roof.peakFmaGflops, std::optional<double>(62878.83179605057));
        QCOMPARE(roof.kernels.size(), 1);
        QCOMPARE(roof.kernels.constFirst().pctOfAttainable, std::optional<double>(91.0299754242061));
        QCOMPARE(roof.kernels.constFirst().timeNs, 34304.0);
        QCOMPARE(roof.candidateGbps, std::optional<double>(3175.485125407328));
        QCOMPARE(roof.flops, std::optional<double>(16777216));
        QCOMPARE(roof.bytes, std::optional<double>(134234112));

        // The trace, both sides; statistics objects read as their median.
        const TraceSummary &trace = m.traceSummary;
        QVERIFY(trace.present && !trace.unavailable);
        QCOMPARE(trace.candidate.kernels.size(), 1);
        const TraceKernel &k = trace.candidate.kernels.constFirst();
        QCOMPARE(k.name, u"rowscale4(float const*, float4 const*, float4*, long, long)"_s);
        QCOMPARE(k.count, 10);
        QCOMPARE(k.totalUs, std::optional<double>(343.035));
        QCOMPARE(k.meanUs, std::optional<double>(34.3035));
        QCOMPARE(k.medianUs, std::optional<double>(34.1595));
        QCOMPARE(k.grid, (QList<int>{4, 4096, 1}));
        QCOMPARE(k.registers, std::optional<int>(22));
        QCOMPARE(k.theoreticalOccupancyPct, std::optional<double>(100));
        QCOMPARE(trace.candidate.kernelTimeMs, std::optional<double>(0.034159499999999995));
        QCOMPARE(trace.candidate.launchesPerRun, std::optional<double>(1));
        QCOMPARE(trace.candidate.runs, std::optional<double>(10));
        QVERIFY(!trace.candidate.lateWork && !trace.candidate.sideStreamWork && trace.candidate.sideStreams.isEmpty());
        QCOMPARE(trace.reference.kernels.size(), 2);

        // Hardware metrics of the candidate.
        const MetricsSummary &metrics = m.metricsSummary;
        QVERIFY(metrics.present && metrics.hasCandidate && !metrics.unavailable);
        QCOMPARE(metrics.totalDramBytes, std::optional<double>(131978240));
        QCOMPARE(metrics.kernels.size(), 1);
        QCOMPARE(metrics.kernels.constFirst().achievedOccupancyPct, std::optional<double>(79.46059314261198));
        QCOMPARE(metrics.kernels.constFirst().registers, std::optional<int>(22));

        // The speed of light, once, by the one computation.
        QCOMPARE(m.speedOfLight.state, SpeedOfLight::State::WithinFloors);
        QCOMPARE(speedOfLightFigure(*m.speedOfLight.percent()), u"75.1"_s);
        QCOMPARE(m.speedOfLight.cellText(), u"75.1%"_s);
    }

    void failedResultsAreTyped()
    {
        const Measurement wrong = Measurement::fromJson(readJson(kResults + u"results/wrong.json"_s));
        QCOMPARE(wrong.verdict, Verdict::Incorrect);
        QVERIFY(wrong.verification.isValid());
        QVERIFY(wrong.verification.mismatches > 0);
        QVERIFY(!wrong.speedOfLight.isKnown());

        // A verdict this version does not know is an error, but the session shows the word it stored.
        const Measurement odd = Measurement::fromJson(QJsonObject{{u"verdict"_s, u"sparkling"_s}});
        QCOMPARE(odd.verdict, Verdict::Error);
        QCOMPARE(odd.verdictName(), u"sparkling"_s);
        QCOMPARE(odd.toJson(), (QJsonObject{{u"verdict"_s, u"sparkling"_s}}));
        QVERIFY(!odd.traceSummary.present && !odd.metricsSummary.present && !odd.compile.present);
    }

    void everyStoredEvaluationRoundTrips_data()
    {
        QTest::addColumn<QString>("session");
        const QStringList sessions = QDir(kSource + u"/docs"_s).entryList({u"*.kforge"_s}, QDir::Files, QDir::Name);
        QVERIFY(!sessions.isEmpty());
        for (const QString &name : sessions)
            QTest::newRow(qPrintable(name)) << kSource + u"/docs/"_s + name;
    }

    void everyStoredEvaluationRoundTrips()
    {
        QFETCH(QString, session);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"copy.kforge"_s);
        QVERIFY(QFile::copy(session, path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        SessionStore store;
        QVERIFY2(store.open(path), qPrintable(store.errorString()));
        int evaluations = 0, withCompile = 0, traced = 0;
        for (const Variant &v : store.population().variants())
            for (const EvaluationSummary &s : store.evaluations().ofVariant(v.id)) {
                const auto e = store.evaluations().find(s.id);
                QVERIFY(e);
                const QByteArray tag = "evaluation #" + QByteArray::number(s.id);
                const Measurement &m = e->measurement();
                const QJsonObject written = m.toJson();
                QVERIFY2(written == e->result, QByteArray(tag + ": " + firstDifference(e->result, written)).constData());
                QCOMPARE(text(written), text(e->result));
                // The typed fields agree with the store's summary columns.
                QCOMPARE(m.verdictName(), s.verdictName());
                QCOMPARE(std::isfinite(m.speedup) ? std::optional<double>(m.speedup) : std::nullopt, s.speedup);
                QCOMPARE(std::isfinite(m.candidate.medianMs) ? std::optional<double>(m.candidate.medianMs) : std::nullopt,
                         s.candidateMedianMs);
                QCOMPARE(m.flags, s.flags);
                withCompile += m.compile.present ? 1 : 0;
                traced += m.traceSummary.candidate.kernels.isEmpty() ? 0 : 1;
                ++evaluations;
            }
        QVERIFY2(evaluations >= 5, qPrintable(u"%1 evaluations"_s.arg(evaluations)));
        QVERIFY(withCompile > 0);
        QVERIFY(traced > 0);
    }

    void editedFieldsAreWrittenUnknownFieldsKept()
    {
        QJsonObject stored = readJson(kResults + u"worker_results/h200_diag_matmul_r1_1.json"_s);
        stored.insert(u"judge_v2"_s, QJsonObject{{u"checked"_s, true}});
        Measurement m = Measurement::fromJson(stored);
        QCOMPARE(m.extra.value(u"judge_v2"_s), stored.value(u"judge_v2"_s));
        m.flags << u"late_work"_s;
        m.compile.log = u"edited"_s;
        const QJsonObject written = m.toJson();
        QCOMPARE(written.value(u"flags"_s).toArray(), QJsonArray{u"late_work"_s});
        QCOMPARE(written.value(u"compile"_s).toObject().value(u"log"_s).toString(), u"edited"_s);
        QCOMPARE(written.value(u"compile"_s).toObject().value(u"resources"_s),
                 stored.value(u"compile"_s).toObject().value(u"resources"_s));
        QCOMPARE(written.value(u"judge_v2"_s), stored.value(u"judge_v2"_s));
        for (const QString &key : stored.keys())
            if (key != u"flags"_s && key != u"compile"_s)
                QVERIFY2(written.value(key) == stored.value(key), qPrintable(key));
        // Written back and read again, the edit stays.
        const Measurement again = Measurement::fromJson(written);
        QCOMPARE(again.flags, QStringList{u"late_work"_s});
        QCOMPARE(again.compile.log, u"edited"_s);
        QCOMPARE(again.toJson(), written);
    }

    void freshResultIsStoredAsBefore()
    {
        // A worker reply as the worker client hands it out, and the compile object RoundRunner adds.
        const QJsonObject worker = readJson(kResults + u"worker_results/h200_diag_matmul_r1_1.json"_s);
        QJsonObject reply = worker;
        const QJsonObject compileJson = reply.take(u"compile"_s).toObject();
        const EvalResult r = EvalResult::fromJson(reply);
        CompileSummary c = CompileSummary::fromJson(compileJson);
        c.raw = {};
        const Measurement m(r, c);
        QJsonObject expected = r.toJson();
        expected.insert(u"compile"_s, compileJson);
        QVERIFY2(m.toJson() == expected, firstDifference(expected, m.toJson()));
        // Its typed views are those of the stored document.
        const Measurement stored = Measurement::fromJson(m.toJson());
        QCOMPARE(m.speedOfLight.cellText(), stored.speedOfLight.cellText());
        QCOMPARE(m.traceSummary.candidate.kernels.size(), stored.traceSummary.candidate.kernels.size());
        QCOMPARE(m.rooflineSummary.kernels.size(), stored.rooflineSummary.kernels.size());
        QCOMPARE(m.metricsSummary.kernels.size(), stored.metricsSummary.kernels.size());

        // Without a compile step (the CLI's eval stores the worker's reply alone) there is no compile object.
        QVERIFY(!Measurement(r).toJson().contains(u"compile"_s));
    }

    void seedOfTheResult()
    {
        // Results before issue 19 have no seed: they still load, with none.
        const QJsonObject old = readJson(kResults + u"worker_results/h200_diag_matmul_r1_1.json"_s);
        QVERIFY(!old.contains(u"seed"_s));
        QVERIFY(!Measurement::fromJson(old).seed.has_value());
        // The judge's "seed", exact to the last of its 63 bits, through text as the worker client reads it.
        QJsonObject withSeed = old;
        withSeed.insert(u"seed"_s, Q_INT64_C(9223372036854775807));
        const QJsonObject read = QJsonDocument::fromJson(QJsonDocument(withSeed).toJson()).object();
        const Measurement m = Measurement::fromJson(read);
        QCOMPARE(m.seed, std::optional<qint64>(Q_INT64_C(9223372036854775807)));
        QCOMPARE(m.toJson(), read); // kept on the way back
        // A fresh reply (the worker client's EvalResult) exposes it too, as kforge-cli eval prints it.
        QCOMPARE(Measurement(EvalResult::fromJson(read)).seed, m.seed);
        withSeed.insert(u"seed"_s, -3);
        QVERIFY(!Measurement::fromJson(withSeed).seed.has_value());
        withSeed.insert(u"seed"_s, u"12"_s);
        QVERIFY(!Measurement::fromJson(withSeed).seed.has_value());
    }
};

QTEST_GUILESS_MAIN(TestMeasurement)
#include "tst_measurement.moc"
