// kforge-cli eval --session: the candidate and its evaluation land in a session as a variant, so that it
// can be exported (tests/core/export/gpu_check.sh builds its sessions so). Without a GPU nothing is recorded
// and no file is created; a session for another task is refused. Built a second time with
// KFORGE_GPU_EVAL (label gpu): on a GPU the measured variant is recorded and exports.
#include "exportfixture.h"

#include "core/export/sessionexportsource.h"
#include "core/session/sessionstore.h"

#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

// kforge-cli eval with its settings, cache and data in `home`.
Run eval(const QStringList &args, const QString &home)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_CONFIG_HOME"_s, home + u"/config"_s);
    env.insert(u"XDG_CACHE_HOME"_s, home + u"/cache"_s);
    env.insert(u"XDG_DATA_HOME"_s, home + u"/data"_s);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(KFORGE_CLI), QStringList{u"eval"_s} + args);
    if (!p.waitForStarted() || !p.waitForFinished(540000))
        qFatal("kforge-cli eval did not finish");
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

const QString kTask = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/tasks/linear_rowsum");
const QString kCandidate = kTask + u"/variants/colsum_gemv.cu"_s;

} // namespace

class TestEvalSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
#ifndef KFORGE_GPU_EVAL
    void sessionOfAnotherTask();
    void noVerdictRecordsNothing();
    void severalWithoutVerdictRecordNothing();
#else
    void recordedAndExportable();
    void severalRecordedOneWorker();
#endif
};

#ifndef KFORGE_GPU_EVAL
void TestEvalSession::sessionOfAnotherTask()
{
    QTemporaryDir home;
    const QString path = home.filePath(u"diag.kforge"_s);
    {
        SessionStore store;
        QString error;
        QVERIFY2(test::makeSession(store, path, u"diag_matmul"_s, {}, &error), qPrintable(error));
    }
    const int variantsBefore = [&] {
        SessionStore store;
        return store.open(path) ? int(store.population().variants().size()) : -1;
    }();
    const Run r = eval({kTask, kCandidate, u"--session"_s, path, u"--no-metrics"_s}, home.path());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(u"is for the task 'diag_matmul', not 'linear_rowsum'"_s), qPrintable(r.err));
    SessionStore store;
    QVERIFY(store.open(path));
    QCOMPARE(int(store.population().variants().size()), variantsBefore);
}

void TestEvalSession::noVerdictRecordsNothing()
{
    QTemporaryDir home;
    const QString path = home.filePath(u"new.kforge"_s);
    const Run r = eval({kTask, kCandidate, u"--session"_s, path, u"--no-metrics"_s}, home.path());
    if (r.exitCode == 0)
        QSKIP("a GPU is here: tst_evalsession_gpu checks the recording");
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(u"Not recorded in %1: the candidate got no verdict."_s.arg(path)), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(path));
}

// Several candidates in one call: each one is answered (here: no verdict, named), nothing is recorded.
void TestEvalSession::severalWithoutVerdictRecordNothing()
{
    QTemporaryDir home;
    const QString path = home.filePath(u"new.kforge"_s);
    const QString reference = kTask + u"/reference.cu"_s;
    const Run r = eval({kTask, kCandidate, reference, u"--session"_s, path, u"--no-metrics"_s}, home.path());
    if (r.exitCode == 0)
        QSKIP("a GPU is here: tst_evalsession_gpu checks the recording");
    QCOMPARE(r.exitCode, 3);
    for (const QString &name : {u"colsum_gemv.cu"_s, u"reference.cu"_s})
        QVERIFY2(r.err.contains(u"Not recorded in %1: %2 got no verdict."_s.arg(path, name)), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(path));
}
#else
void TestEvalSession::recordedAndExportable()
{
    QTemporaryDir home;
    const QString path = home.filePath(u"linear_rowsum.kforge"_s);
    const Run r = eval({kTask, kCandidate, u"--session"_s, path, u"--no-metrics"_s}, home.path());
    qInfo().noquote() << r.out << r.err;
    if (r.exitCode == 3)
        QSKIP(qPrintable(u"no verdict here (no GPU?): "_s + r.err));
    QCOMPARE(r.exitCode, 0);
    const QRegularExpressionMatch m = QRegularExpression(u"Recorded as variant (\\d+) in "_s).match(r.err);
    QVERIFY2(m.hasMatch(), qPrintable(r.err));
    const qint64 id = m.captured(1).toLongLong();

    SessionStore store;
    QVERIFY2(store.open(path), qPrintable(store.errorString()));
    QCOMPARE(store.task().name, u"linear_rowsum"_s);
    const Variant *v = store.population().find(id);
    QVERIFY(v);
    QCOMPARE(v->label, u"colsum_gemv"_s);
    QVERIFY(v->origin == VariantOrigin::Imported);
    QVERIFY(v->isCorrect());
    QVERIFY(v->eval.speedup && *v->eval.speedup > 1);
    QCOMPARE(store.variants().source(id), QString::fromUtf8([] {
                 QFile f(kCandidate);
                 return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
             }()));
    // What the export needs: the device (its architecture) and the measured medians.
    QString error;
    const auto in = SessionExportSource::build(store, id, &error);
    QVERIFY2(in, qPrintable(error));
    QVERIFY(!in->provenance.gpuName.isEmpty());
    QVERIFY2(in->provenance.arch.startsWith(u"sm_"_s), qPrintable(in->provenance.arch));
    QVERIFY(in->provenance.referenceMedianMs && in->provenance.candidateMedianMs);
    QVERIFY(qAbs(*in->provenance.speedup - *v->eval.speedup) < 1e-9);
}

// Several candidates in one call: both measured by the one worker, both recorded, and the batch summary printed.
void TestEvalSession::severalRecordedOneWorker()
{
    QTemporaryDir home;
    const QString path = home.filePath(u"linear_rowsum.kforge"_s);
    const QString reference = kTask + u"/reference.cu"_s;
    const Run r = eval({kTask, kCandidate, reference, u"--session"_s, path, u"--no-metrics"_s}, home.path());
    qInfo().noquote() << r.out << r.err;
    if (r.exitCode == 3)
        QSKIP(qPrintable(u"no verdict here (no GPU?): "_s + r.err));
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.err.count(QRegularExpression(u"Recorded as variant \\d+ in "_s)), 2);
    QVERIFY2(r.out.contains(u"2 candidates in "_s), qPrintable(r.out));
    SessionStore store;
    QVERIFY2(store.open(path), qPrintable(store.errorString()));
    QStringList labels;
    for (const Variant &v : store.population().variants())
        if (v.origin == VariantOrigin::Imported && v.isCorrect())
            labels << v.label;
    QVERIFY2(labels.contains(u"colsum_gemv"_s) && labels.contains(u"reference"_s), qPrintable(labels.join(u", ")));
}
#endif

QTEST_GUILESS_MAIN(TestEvalSession)
#include "tst_evalsession.moc"
