// kforge-cli eval on a torch task whose worker cannot run: one line that names the missing piece and the fix, exit
// status 3 (no verdict), never a Python traceback. Real parts: kforge-cli, the real kforge-torch-worker, a python3
// that cannot see torch (`python3 -I -S` in a wrapper), a KFORGE_TORCH_PYTHON that does not exist, a PATH without
// python3.
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class TestEvalTorchReady : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_noTorch;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        const QString python = QStandardPaths::findExecutable(u"python3"_s);
        if (python.isEmpty())
            QSKIP("no python3 to run kforge-torch-worker with");
        m_noTorch = m_dir.filePath(u"python3-without-torch"_s);
        QFile f(m_noTorch);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\nexec " + python.toLocal8Bit() + " -I -S \"$@\"\n");
        f.close();
        QVERIFY(f.setPermissions(f.permissions() | QFile::ExeOwner));
    }

    void oneLineCause_data()
    {
        QTest::addColumn<QString>("torchPython");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QStringList>("says");
        QTest::addRow("python3 without torch")
            << u"wrapper"_s << QString()
            << QStringList{u"error: The torch worker's Python has no torch"_s, u"No module named 'torch'"_s,
                           u"KFORGE_TORCH_PYTHON"_s};
        QTest::addRow("KFORGE_TORCH_PYTHON missing")
            << u"/nonexistent/python3"_s << QString()
            << QStringList{u"error: The torch worker needs python3"_s, u"KFORGE_TORCH_PYTHON=/nonexistent/python3"_s};
        QTest::addRow("no python3 on PATH") << QString() << u"empty"_s
                                            << QStringList{u"error: The torch worker needs python3"_s, u"exit code 127"_s};
    }
    void oneLineCause()
    {
        QFETCH(QString, torchPython);
        QFETCH(QString, path);
        QFETCH(QStringList, says);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"XDG_CONFIG_HOME"_s, m_dir.filePath(u"config"_s));
        env.insert(u"XDG_CACHE_HOME"_s, m_dir.filePath(u"cache"_s));
        env.insert(u"XDG_DATA_HOME"_s, m_dir.filePath(u"data"_s));
        env.remove(u"KFORGE_VERBOSE"_s);
        if (!torchPython.isEmpty())
            env.insert(u"KFORGE_TORCH_PYTHON"_s, torchPython == u"wrapper" ? m_noTorch : torchPython);
        else
            env.remove(u"KFORGE_TORCH_PYTHON"_s);
        if (!path.isEmpty())
            env.insert(u"PATH"_s, m_dir.path()); // no python3 there
        QProcess cli;
        cli.setProcessEnvironment(env);
        const QString task = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/torch_softmax");
        cli.start(QStringLiteral(KFORGE_CLI), {u"eval"_s, u"--worker"_s, u"kforge-worker --device cpu"_s, task,
                                               task + u"/variants/explicit.py"_s});
        QVERIFY(cli.waitForFinished(120000));
        const QString out = QString::fromUtf8(cli.readAllStandardOutput() + cli.readAllStandardError());
        QCOMPARE(cli.exitCode(), 3); // no verdict
        QVERIFY2(!out.contains(u"Traceback"_s) && !out.contains(u"File \""_s), qPrintable(out));
        QStringList errors;
        for (const QString &line : out.split(u'\n'))
            if (line.startsWith(u"error: "_s))
                errors << line;
        QCOMPARE(errors.size(), 1);
        for (const QString &s : std::as_const(says))
            QVERIFY2(errors.first().contains(s), qPrintable(s + u" not in: "_s + out));
    }
};

QTEST_GUILESS_MAIN(TestEvalTorchReady)
#include "tst_evaltorchready.moc"
