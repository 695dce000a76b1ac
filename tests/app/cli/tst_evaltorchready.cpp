// kforge-cli eval on a torch task whose worker cannot judge it: one line that names the missing piece and the fix,
// exit status 3 (no verdict), never a Python traceback. kforge-worker judges torch tasks; what it lacks for one comes
// from its device_info (the GPU, and the "torch" probe of the python its module hosts run with). Real parts:
// kforge-cli, the real kforge-worker (with KFORGE_TORCH_PYTHON naming a python that is not there) and scripted
// workers whose probe says their python has no torch or is not there.
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QString kScripted = QStringLiteral("\"" KFORGE_TEST_SOURCE_DIR "/tests/fixtures/workers/scripted-worker.sh\" ");

} // namespace

class TestEvalTorchReady : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void oneLineCause_data()
    {
        QTest::addColumn<QString>("worker"); // "real": the kforge-worker CTest names in KFORGE_WORKER
        QTest::addColumn<QStringList>("says");
        QTest::addRow("python without torch")
            << kScripted + u"notorch"_s
            << QStringList{u"error: kforge-worker's Python has no torch"_s, u"No module named 'torch'"_s,
                           u"KFORGE_TORCH_PYTHON"_s, u"--torch-python"_s};
        QTest::addRow("python not there")
            << kScripted + u"nopython"_s
            << QStringList{u"error: kforge-worker cannot run the Python"_s, u"/opt/none/python3"_s,
                           u"KFORGE_TORCH_PYTHON"_s};
        QTest::addRow("the real kforge-worker") << u"real"_s << QStringList{};
    }
    void oneLineCause()
    {
        QFETCH(QString, worker);
        QFETCH(QStringList, says);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"XDG_CONFIG_HOME"_s, m_dir.filePath(u"config"_s));
        env.insert(u"XDG_CACHE_HOME"_s, m_dir.filePath(u"cache"_s));
        env.insert(u"XDG_DATA_HOME"_s, m_dir.filePath(u"data"_s));
        env.remove(u"KFORGE_VERBOSE"_s);
        if (worker == u"real") {
            worker = qEnvironmentVariable("KFORGE_WORKER");
            if (worker.isEmpty())
                QSKIP("kforge-worker is not built here");
            env.insert(u"KFORGE_TORCH_PYTHON"_s, u"/nonexistent/python3"_s); // the worker inherits it
        }
        QProcess cli;
        cli.setProcessEnvironment(env);
        const QString task = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/torch_softmax");
        cli.start(QStringLiteral(KFORGE_CLI), {u"eval"_s, u"--worker"_s, worker, task, task + u"/variants/explicit.py"_s});
        QVERIFY(cli.waitForFinished(120000));
        const QString out = QString::fromUtf8(cli.readAllStandardOutput() + cli.readAllStandardError());
        QCOMPARE(cli.exitCode(), 3); // no verdict
        QVERIFY2(!out.contains(u"Traceback"_s) && !out.contains(u"File \""_s), qPrintable(out));
        QStringList errors;
        for (const QString &line : out.split(u'\n'))
            if (line.startsWith(u"error: "_s))
                errors << line;
        QCOMPARE(errors.size(), 1);
        if (says.isEmpty()) {
            // Without a GPU, a torch task's words for it; with one, its python for torch tasks is not there.
            says = out.contains(u"No usable GPU"_s)
                       ? QStringList{u"error: No usable GPU: kforge-worker finds no NVIDIA GPU"_s, u"PyTorch task"_s}
                       : QStringList{u"/nonexistent/python3"_s, u"KFORGE_TORCH_PYTHON"_s};
        }
        for (const QString &s : std::as_const(says))
            QVERIFY2(errors.first().contains(s), qPrintable(s + u" not in: "_s + out));
        QVERIFY2(!out.contains(u"kforge-torch-worker"_s), qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestEvalTorchReady)
#include "tst_evaltorchready.moc"
