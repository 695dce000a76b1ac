// The Task panel on a real H200 session: the description, parameters, inputs and outputs with dtype and
// shape as written and evaluated, the tolerance, the FLOP and byte formulas with their values, and the
// floors from the peaks the worker measured (stored ones, then a connected worker's); a task.json that does
// not parse is named with its field; no session, no task.
#include "panelfixture.h"
#include "views/task/taskfloors.h"
#include "views/task/taskpanel.h"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using namespace kforge;
using namespace kforge::test;

namespace {

QString copyOfH200Session(const QTemporaryDir &dir)
{
    const QString to = dir.filePath(QStringLiteral("h200.kforge"));
    QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge"), to);
    QFile(to).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return to;
}

} // namespace

class TestTaskPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale::c()); // figures without group separators, whatever the machine's locale
    }

    void floors_data()
    {
        QTest::addColumn<double>("flops");
        QTest::addColumn<double>("bytes");
        QTest::addColumn<double>("computeMs"); // -1: none
        QTest::addColumn<double>("memoryMs");
        QTest::addColumn<double>("floorMs");
        QTest::addColumn<bool>("memoryLimited");
        // diag_matmul on the H200 of docs/: 16.8 MFLOP, 134 MB; 62936 GFLOP/s, 4219 GB/s.
        QTest::newRow("diag_matmul") << 16777216.0 << 134234112.0 << 16777216.0 / 62936.01e6 << 134234112.0 / 4219.056e6
                                     << 134234112.0 / 4219.056e6 << true;
        QTest::newRow("compute-bound") << 1e12 << 1e8 << 1e12 / 62936.01e6 << 1e8 / 4219.056e6 << 1e12 / 62936.01e6 << false;
        QTest::newRow("bytes only") << 0.0 << 1e8 << -1.0 << 1e8 / 4219.056e6 << 1e8 / 4219.056e6 << true;
        QTest::newRow("no formulas") << 0.0 << 0.0 << -1.0 << -1.0 << -1.0 << false;
    }

    void floors()
    {
        QFETCH(double, flops);
        QFETCH(double, bytes);
        QFETCH(double, computeMs);
        QFETCH(double, memoryMs);
        QFETCH(double, floorMs);
        QFETCH(bool, memoryLimited);
        const TaskFloors f = taskFloors(flops, bytes, 62936.01, 4219.056);
        QCOMPARE(f.computeMs.has_value(), computeMs >= 0);
        QCOMPARE(f.memoryMs.has_value(), memoryMs >= 0);
        QCOMPARE(f.floorMs().has_value(), floorMs >= 0);
        if (computeMs >= 0)
            QVERIFY(qFuzzyCompare(*f.computeMs, computeMs));
        if (memoryMs >= 0)
            QVERIFY(qFuzzyCompare(*f.memoryMs, memoryMs));
        if (floorMs >= 0)
            QVERIFY(qFuzzyCompare(*f.floorMs(), floorMs));
        QCOMPARE(f.memoryLimited(), memoryLimited);
        // Without measured peaks there is no floor, whatever the formulas say.
        QVERIFY(!taskFloors(flops, bytes, 0, 0).floorMs());
    }

    void showsTheTaskOfTheH200Session()
    {
        QTemporaryDir dir;
        SessionStore store;
        TaskPanel panel(&store);
        QCOMPARE(panel.text(), QStringLiteral("No session is open. Open a task folder or a session to see its task here."));
        QVERIFY(!panel.problem().isEmpty());

        QVERIFY2(store.open(copyOfH200Session(dir)), qPrintable(store.errorString()));
        QVERIFY(panel.problem().isEmpty());
        const QString t = panel.text();
        const QStringList expected{
            QStringLiteral("diag(A) @ B (diag_matmul)"),
            QStringLiteral("Multiply a diagonal matrix by a dense matrix: C = diag(A) @ B"),
            QStringLiteral("N\n4096"),
            QStringLiteral("M\n4096"),
            // Inputs and outputs: name, dtype, shape as written and evaluated, elements, size, initial values.
            QStringLiteral("A\nf32\n(N) = (4096)\n4096\n16.4 kB\nnormal, mean 0, std 1"),
            QStringLiteral("B\nf32\n(N, M) = (4096, 4096)\n16777216\n67.1 MB\nnormal, mean 0, std 1"),
            QStringLiteral("C\nf32\n(N, M) = (4096, 4096)\n16777216\n67.1 MB"),
            QStringLiteral("f32 outputs: |got − expected| ≤ atol + rtol · |expected|, atol 1e-05, rtol 1e-05 (from task.json)"),
            QStringLiteral("FLOP\nN*M\n16777216 FLOP"),
            QStringLiteral("Bytes\n4*N + 4*N*M + 4*N*M\n134234112 bytes (134.2 MB)"),
            QStringLiteral("Arithmetic intensity\nFLOP / bytes\n0.125 FLOP/byte"),
            // The floors from the peaks the worker measured, stored with the newest result (#9's).
            QStringLiteral("NVIDIA H200: 4219 GB/s copy bandwidth, 62.9 TFLOP/s FP32 FMA (measured by the worker, stored "
                           "with the result of #9)."),
            QStringLiteral("Memory\n31.8 µs\n134.2 MB at 4219 GB/s"),
            QStringLiteral("Compute\n0.267 µs\n16777216 FLOP at 62.9 TFLOP/s"),
            QStringLiteral("Speed of light: 31.8 µs, memory-bound."),
            QStringLiteral("Time limit: 60 s per evaluation."),
            QStringLiteral("nvcc flags: -lcublas"),
        };
        // (A table's cells are lines of the plain text.)
        for (const QString &line : expected)
            QVERIFY2(t.contains(line), qPrintable(QStringLiteral("missing \"%1\" in:\n%2").arg(line, t)));
        // The worker reports figures of its own (the H200 of the stored results' floor was 0.0318 ms).
        QVERIFY(store.evaluations()
                    .find(7)
                    ->result.value(QLatin1String("roofline"))
                    .toObject()
                    .value(QLatin1String("floor_ms"))
                    .toDouble()
                > 0.0318);
        panel.resize(1280, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        saveScreenshot(&panel, QStringLiteral("task-h200"));

        // A connected worker's peaks win over the stored ones.
        DeviceInfo device;
        device.name = QStringLiteral("NVIDIA H100 80GB HBM3");
        device.ccMajor = 9;
        device.peakCopyGbps = 2900;
        device.peakFmaGflops = 51000;
        panel.setDevice(device);
        QVERIFY2(panel.text().contains(QLatin1String("NVIDIA H100 80GB HBM3: 2900 GB/s copy bandwidth, 51 TFLOP/s FP32 FMA "
                                                     "(measured by the connected worker).")),
                 qPrintable(panel.text()));
        QVERIFY(panel.text().contains(QStringLiteral("Speed of light: 46.3 µs, memory-bound.")));

        store.close();
        QVERIFY(panel.text().startsWith(QLatin1String("No session is open.")));
    }

    void floorsAppearWithTheFirstMeasuredResult()
    {
        SessionFixture f;
        QVERIFY(f.create());
        TaskPanel panel(&f.store());
        QVERIFY2(panel.text().contains(QLatin1String("No device peaks are known yet")), qPrintable(panel.text()));
        QVERIFY(!panel.text().contains(QLatin1String("Speed of light:")));
        f.measureReference(); // a worker-shaped result, with the peaks an H200 worker measured
        QVERIFY2(panel.text().contains(QLatin1String("4020 GB/s copy bandwidth")), qPrintable(panel.text()));
        QVERIFY(panel.text().contains(QLatin1String("Speed of light:")));
    }

    void badTaskIsNamed()
    {
        QTemporaryDir dir;
        const QString file = copyOfH200Session(dir);
        {
            // A task.json whose shape names a parameter it does not have.
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("edit"));
            db.setDatabaseName(file);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral(
                "UPDATE task SET task_json = replace(task_json, '\"shape\": [\"N\"]', '\"shape\": [\"K\"]')")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("edit"));
        SessionStore store;
        QVERIFY2(store.open(file), qPrintable(store.errorString()));
        TaskPanel panel(&store);
        QVERIFY2(panel.problem().startsWith(
                     QLatin1String("The task stored in this session cannot be read: task.json: inputs[0].shape[0]:")),
                 qPrintable(panel.problem()));
        QVERIFY2(panel.problem().contains(QLatin1String("K")), qPrintable(panel.problem()));
        QCOMPARE(panel.text(), panel.problem());
    }
};

QTEST_MAIN(TestTaskPanel)
#include "tst_taskpanel.moc"
