// Issue 18: one variant shows the same speed-of-light figures in the prompt, the Variants table, Compare, the
// HTML report and the export README (all from the stored evaluation's Measurement), and none over 100 %. Two variants
// of a real session file: one within both floors, and one whose stored result is the worker's for a task that counts
// the FLOPs of the GEMM on the materialised diagonal matrix (2*N*N*M), which a rewrite beats; the old computation
// showed it as "177% of speed of light".
#include "core/eval/measurementfigures.h"
#include "core/eval/speedoflight.h"
#include "core/export/exportreadme.h"
#include "core/export/reportinput.h"
#include "core/export/reportwriter.h"
#include "core/export/sessionexportsource.h"
#include "core/optimizer/promptbuilder.h"
#include "panelfixture.h"
#include "views/compare/comparemetricsmodel.h"
#include "views/variants/variantsmodel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;
using namespace kforge::test;

namespace {

constexpr double kN = 4096, kM = 4096, kPeakGflops = 59300; // as panelfixture's H200 results

// The result the worker writes for the same run when task.json says flops = 2*N*N*M.
QJsonObject withGemmFlops(QJsonObject r)
{
    const double flops = 2 * kN * kN * kM, floor = flops / (kPeakGflops * 1e6);
    const double median = r.value(u"timing"_s).toObject().value(u"candidate"_s).toObject().value(u"median_ms"_s).toDouble();
    QJsonObject roof = r.value(u"roofline"_s).toObject();
    roof.insert(u"flops"_s, flops);
    roof.insert(u"flops_floor_ms"_s, floor);
    roof.insert(u"floor_ms"_s, floor);
    roof.insert(u"fraction_of_floor"_s, floor / median);
    QJsonObject profile = roof.value(u"profile"_s).toObject();
    QJsonObject candidate = profile.value(u"candidate"_s).toObject();
    QJsonObject task = candidate.value(u"task"_s).toObject();
    task.insert(u"flops"_s, flops);
    task.insert(u"compute_floor_ms"_s, floor);
    task.insert(u"floor_ms"_s, floor);
    task.insert(u"time_over_floor"_s, median / floor);
    task.insert(u"limit"_s, u"compute"_s);
    candidate.insert(u"task"_s, task);
    profile.insert(u"candidate"_s, candidate);
    roof.insert(u"profile"_s, profile);
    r.insert(u"roofline"_s, roof);
    r.insert(u"flags"_s, QJsonArray{u"beats_flop_floor"_s});
    return r;
}

QList<double> percentages(const QString &text)
{
    static const QRegularExpression re(uR"((\d+(?:\.\d+)?)\s*%)"_s);
    QList<double> out;
    for (auto it = re.globalMatch(text); it.hasNext();)
        out << it.next().captured(1).toDouble();
    return out;
}

// The lines of `text` that speak of the speed of light or its floors.
QString solLines(const QString &text)
{
    QStringList out;
    for (const QString &line : text.split(u'\n'))
        if (line.contains(u"speed of light"_s, Qt::CaseInsensitive) || line.contains(u"floor"_s))
            out << line;
    return out.join(u'\n');
}

} // namespace

class TestSpeedOfLightViews : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void sameFiguresEverywhere()
    {
        SessionFixture f;
        QVERIFY2(f.create(), qPrintable(f.store().errorString()));
        SessionStore &store = f.store();
        f.measureReference();
        const qint64 within = f.addMeasured(u"within"_s, 8.0);
        ResultSpec spec;
        spec.speedup = 9.0;
        const qint64 beats = f.addMeasured(u"rewrite"_s, spec);
        QVERIFY(within && beats);
        store.evaluations().add(Evaluation::fromResult(beats, withGemmFlops(workerResult(spec)), h200Device()));

        VariantsModel variants;
        variants.setStore(&store);
        QAbstractItemModelTester tester(&variants, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Details are read when a row is first shown, in the background.
        for (int row = 0; row < variants.rowCount(); ++row)
            variants.index(row, VariantsModel::SpeedOfLight).data();
        QTRY_COMPARE(variants.pendingDetails(), 0);
        QTRY_VERIFY(!variants.index(variants.rowOf(within), VariantsModel::SpeedOfLight).data().toString().isEmpty());
        QTRY_VERIFY(!variants.index(variants.rowOf(beats), VariantsModel::SpeedOfLight).data().toString().isEmpty());

        const auto measurementOf = [&](qint64 id) { return store.evaluations().latest(id)->figures(); };
        CompareMetricsModel compare;
        compare.setMeasurements(measurementOf(within), measurementOf(beats), u"within"_s, u"rewrite"_s);
        const int solRow = compare.rowOf(u"sol"_s);
        QVERIFY(solRow >= 0);

        ContrastiveRequest request;
        request.task = store.task();
        request.exemplars = {PromptBuilder::exemplar(store, within), PromptBuilder::exemplar(store, beats)};
        QString error;
        const QString prompt = PromptBuilder::contrastive(request, &error);
        QVERIFY2(!prompt.isEmpty(), qPrintable(error));

        const std::optional<ReportInput> report = ReportSource::build(store, 5, &error);
        QVERIFY2(report, qPrintable(error));
        const QString html = ReportWriter::html(*report);

        struct Case {
            qint64 id;
            SpeedOfLight::State state;
            int compareColumn;
        };
        for (const Case &c : {Case{within, SpeedOfLight::State::WithinFloors, CompareMetricsModel::A},
                              Case{beats, SpeedOfLight::State::BeatsFlopFloor, CompareMetricsModel::B}}) {
            const QByteArray tag = "variant #" + QByteArray::number(c.id);
            const SpeedOfLight sol = SpeedOfLight::fromResult(store.evaluations().latest(c.id)->result);
            QVERIFY2(sol.state == c.state, tag);
            const QString figure = speedOfLightFigure(*sol.percent());

            // Prompt: the profile line of this exemplar.
            QVERIFY2(prompt.contains(sol.promptLine()), qPrintable(sol.promptLine()));
            QVERIFY2(sol.promptLine().contains(figure + u'%'), qPrintable(sol.promptLine()));
            // Variants table.
            const QString cell = variants.index(variants.rowOf(c.id), VariantsModel::SpeedOfLight).data().toString();
            QCOMPARE(cell, sol.cellText());
            // Compare.
            QCOMPARE(compare.index(solRow, c.compareColumn).data().toString(), sol.cellText());
            // HTML report: the Speed of light row and the profile line.
            QVERIFY2(html.contains(sol.reportText().toHtmlEscaped()), qPrintable(sol.reportText()));
            QVERIFY2(html.contains(sol.promptLine().toHtmlEscaped()), tag);
            QVERIFY2(sol.reportText().contains(figure + u'%'), qPrintable(sol.reportText()));

            // Export README: the provenance's Speed of light row.
            const std::optional<ExportInput> exported = SessionExportSource::build(store, c.id, &error);
            QVERIFY2(exported, qPrintable(error));
            const QString readme = ExportReadme::provenanceRows(*exported).join(u'\n');
            QVERIFY2(readme.contains(u"| Speed of light | "_s + sol.reportText() + u" |"_s), qPrintable(readme));
            // The Measurement every reader gets from the store carries that same computation.
            const SpeedOfLight typed = store.evaluations().latest(c.id)->measurement().speedOfLight;
            QCOMPARE(typed.state, sol.state);
            QCOMPARE(typed.reportText(), sol.reportText());

            if (c.state == SpeedOfLight::State::WithinFloors) {
                QCOMPARE(cell, figure + u'%');
            } else {
                QCOMPARE(cell, u"beats FLOP floor"_s);
                QVERIFY(sol.promptLine().startsWith(u"faster than the task's declared arithmetic allows"_s));
                QVERIFY(html.contains(u"beats the task's FLOP floor"_s));
            }
            // Whatever the old fallbacks made of the 2*N*N*M floor (177%), nothing over 100 reaches the user.
            for (const QString &text : {solLines(prompt), cell, compare.index(solRow, c.compareColumn).data().toString(),
                                        solLines(html), solLines(readme)})
                for (double pct : percentages(text))
                    QVERIFY2(pct <= 100, qPrintable(text));
        }
        // The old computation, for the record: the worker's own fraction of the floor is 1.77 for the rewrite.
        const QJsonObject roof = store.evaluations().latest(beats)->result.value(u"roofline"_s).toObject();
        QVERIFY(roof.value(u"fraction_of_floor"_s).toDouble() > 1.7);
    }
};

QTEST_MAIN(TestSpeedOfLightViews)
#include "tst_speedoflight_views.moc"
