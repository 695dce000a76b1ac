// Every built-in task's reference and hand-written variants compile with the real nvcc, through the
// Compiler's parallel queue, without errors.
#include "core/compile/compiler.h"
#include "core/compile/cudatoolkit.h"
#include "core/task/task.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

class TestBuiltinCompile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void allBuiltinSourcesCompile();
};

void TestBuiltinCompile::allBuiltinSourcesCompile()
{
    QStandardPaths::setTestModeEnabled(true);
    if (CudaToolkit::locateNvcc().isEmpty())
        QSKIP("no nvcc on this machine: the compile service needs a CUDA toolkit");
    const QStringList folders = Task::builtinTaskFolders();
    QVERIFY2(folders.size() >= 10, qPrintable(u"only %1 built-in tasks"_s.arg(folders.size())));

    QTemporaryDir cache;
    Compiler compiler;
    compiler.setCacheDir(cache.path());
    QHash<int, QString> what; // job -> "task/variant"
    for (const QString &folder : folders) {
        const TaskLoadResult loaded = Task::load(folder);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error.message()));
        const Task &task = *loaded.task;
        CompileRequest ref;
        ref.source = task.referenceSource();
        ref.fileName = u"reference.cu"_s;
        ref.flags = task.nvccFlags();
        what.insert(compiler.compile(ref), task.name() + u"/reference"_s);
        for (const TaskVariant &v : task.variants()) {
            CompileRequest req;
            req.source = v.source;
            req.fileName = v.file;
            req.flags = task.flagsFor(&v);
            what.insert(compiler.compile(req), task.name() + u'/' + v.label);
        }
    }
    QSignalSpy finished(&compiler, &Compiler::finished);
    QElapsedTimer clock;
    clock.start();
    while (finished.count() < what.size())
        QVERIFY2(finished.wait(300000), "a compile job did not finish in 5 minutes");
    QStringList failures;
    for (const auto &args : std::as_const(finished)) {
        const auto r = args.at(1).value<CompileResult>();
        if (!r.ok || r.errorCount() > 0)
            failures << what.value(args.at(0).toInt()) + u": "_s + r.errorMessage + u'\n' + r.firstError();
        else if (r.resources.isEmpty() && !r.log.contains(u"ptxas"))
            failures << what.value(args.at(0).toInt()) + u": no kernel resources reported"_s;
    }
    qInfo("%lld sources of %lld tasks compiled in %.1f s with %d parallel jobs", qlonglong(what.size()),
          qlonglong(folders.size()), double(clock.elapsed()) / 1000.0, compiler.maxParallel());
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u'\n')));
}

int main(int argc, char **argv)
{
    // ~50 nvcc runs take minutes on a small machine; Qt Test's 5-minute function watchdog is too short.
    if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "1800000");
    QCoreApplication app(argc, argv);
    TestBuiltinCompile test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_builtin_compile.moc"
