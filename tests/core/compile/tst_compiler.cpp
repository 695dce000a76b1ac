// The compile service with the real nvcc: cache misses and hits, diagnostics of broken kernels, per-kernel
// resources, PTX/SASS, the queue, cancellation and the missing-toolkit message.
#include "core/compile/compiler.h"
#include "core/compile/cudatoolkit.h"
#include "compilerun.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace kforge;
using kforge::test::phaseNames;
using kforge::test::run;

namespace {

const QString kGoodKernel = uR"(#include "kforge/kernel.h"
// variant %1
__global__ void scale(const float *a, float *c, int n)
{
    __shared__ float buf[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? a[i] : 0.f;
    __syncthreads();
    if (i < n)
        c[i] = buf[255 - threadIdx.x] * 2.f;
}
KF_ENTRY(in, nin, out, nout, params, stream)
{
    int n = (int)in[0].numel;
    scale<<<(n + 255) / 256, 256, 0, stream>>>((const float *)in[0].data, (float *)out[0].data, n);
    return (int)cudaGetLastError();
}
)"_s;

const QString kBrokenKernel = uR"(#include "kforge/kernel.h"
__global__ void k(float *x)
{
    x[threadIdx.x] = undefined_value;
}
int host_helper() {
    return "not an int";
}
KF_ENTRY(in, nin, out, nout, params, stream) { return 0; }
)"_s;

const QString kSpillingKernel = uR"(#include "kforge/kernel.h"
__global__ void __launch_bounds__(1024, 2) heavy(float *x, const float *y, int n)
{
    float acc[64];
#pragma unroll
    for (int i = 0; i < 64; ++i) acc[i] = y[threadIdx.x + i * n];
    for (int k = 0; k < n; ++k)
#pragma unroll
        for (int i = 0; i < 64; ++i) acc[i] = acc[i] * acc[(i + k) & 63] + y[k];
    float s = 0;
#pragma unroll
    for (int i = 0; i < 64; ++i) s += acc[i];
    x[threadIdx.x] = s;
}
KF_ENTRY(in, nin, out, nout, params, stream)
{
    heavy<<<1, 1024, 0, stream>>>((float *)out[0].data, (const float *)in[0].data, 8);
    return 0;
}
)"_s;

// The commands of the processes whose working folder is inside `dir` (Linux /proc; empty elsewhere).
QStringList processesWorkingIn(const QString &dir)
{
    QStringList found;
    const QString canonical = QFileInfo(dir).canonicalFilePath();
    for (const QString &pid : QDir(u"/proc"_s).entryList(QDir::Dirs)) {
        if (pid.toInt() <= 0)
            continue;
        // readlink, not QFileInfo: the folder may be gone already (" (deleted)"), the process not.
        char buf[4096];
        const ssize_t n = ::readlink(QByteArray("/proc/" + pid.toLatin1() + "/cwd").constData(), buf, sizeof buf - 1);
        const QString cwd = n > 0 ? QString::fromUtf8(buf, n) : QString();
        if (!cwd.isEmpty() && cwd.startsWith(canonical + u'/')) {
            QFile cmd(u"/proc/"_s + pid + u"/cmdline"_s);
            found << (cmd.open(QIODevice::ReadOnly) ? QString::fromUtf8(cmd.readAll().replace('\0', ' ')) : pid);
        }
    }
    return found;
}

} // namespace

class TestCompiler : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<QTemporaryDir> m_cache;

private Q_SLOTS:
    void initTestCase();
    void init();
    void cacheMissThenHit();
    void cacheKeptUnderItsLimit();
    void keyCoversFlagsAndArch();
    void resultsAreAlwaysAsynchronous();
    void brokenKernelDiagnostics();
    void linkErrorsAreDiagnostics();
    void resourceUsage();
    void ptxOutput();
    void sassOutputOrClearMessage();
    void hitRenamesWarningsFile();
    void parallelQueueAndSharedKey();
    void hitDoesNotWaitForASlot();
    void cancelQueuedJob();
    void parallelStepsMatchPlainNvcc_data();
    void parallelStepsMatchPlainNvcc();
    void unknownPlanRunsPlainNvcc();
    void badArch();
    void missingNvcc();
};

void TestCompiler::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    if (CudaToolkit::locateNvcc().isEmpty())
        QSKIP("no nvcc on this machine: the compile service needs a CUDA toolkit");
}

void TestCompiler::init()
{
    m_cache = std::make_unique<QTemporaryDir>();
    QVERIFY(m_cache->isValid());
}

void TestCompiler::cacheMissThenHit()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    CompileRequest req;
    req.source = kGoodKernel.arg(1);
    req.fileName = u"good.cu"_s;

    const CompileResult miss = run(compiler, req);
    QVERIFY2(miss.ok, qPrintable(miss.errorMessage + u'\n' + miss.log));
    QVERIFY(!miss.cacheHit);
    QCOMPARE(miss.hash.size(), 64); // SHA-256 hex
    QCOMPARE(miss.artifactPath, m_cache->path() + u'/' + miss.hash + u"/kernel.so"_s);
    QVERIFY(QFileInfo(miss.artifactPath).size() > 0);
    QCOMPARE(miss.arch, u"sm_90"_s);
    QVERIFY(!miss.nvccVersion.isEmpty());
    QVERIFY(miss.commandLine.contains(u"-Xptxas"_s));
    QCOMPARE(miss.errorCount(), 0);
    // The cache entry keeps what the editor needs besides the .so.
    QVERIFY(QFileInfo::exists(m_cache->path() + u'/' + miss.hash + u"/meta.json"_s));
    QVERIFY(QFileInfo::exists(m_cache->path() + u'/' + miss.hash + u"/good.cu"_s));

    const CompileResult hit = run(compiler, req);
    QVERIFY(hit.ok);
    QVERIFY(hit.cacheHit);
    QCOMPARE(hit.hash, miss.hash);
    QCOMPARE(hit.artifactPath, miss.artifactPath);
    QCOMPARE(hit.resources, miss.resources);
    QVERIFY2(hit.elapsedMs < miss.elapsedMs / 5,
             qPrintable(u"hit %1 ms, miss %2 ms"_s.arg(hit.elapsedMs).arg(miss.elapsedMs)));

    // A fresh Compiler (a later session) finds the same entry on disk.
    Compiler second;
    second.setCacheDir(m_cache->path());
    const CompileResult later = run(second, req);
    QVERIFY(later.cacheHit);
    QCOMPARE(later.artifactPath, miss.artifactPath);

    // useCache = false rebuilds and replaces the entry.
    req.useCache = false;
    const CompileResult rebuilt = run(compiler, req);
    QVERIFY(rebuilt.ok);
    QVERIFY(!rebuilt.cacheHit);
    QCOMPARE(rebuilt.artifactPath, miss.artifactPath);
    QVERIFY(QFileInfo::exists(rebuilt.artifactPath));
}

// Entries the cache holds, by key, with their size on disk.
static QStringList cacheEntries(const QString &dir)
{
    QStringList keys;
    for (const QString &name : QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (name.size() == 64)
            keys << name;
    return keys;
}

// An old entry of `bytes` bytes, last used `ageS` seconds ago.
static QString fakeEntry(const QString &dir, char fill, qint64 bytes, int ageS)
{
    const QString key = QString(64, QLatin1Char(fill));
    QDir().mkpath(dir + u'/' + key);
    QFile so(dir + u'/' + key + u"/kernel.so"_s);
    if (so.open(QIODevice::WriteOnly))
        so.write(QByteArray(bytes, 'x'));
    QFile meta(dir + u'/' + key + u"/meta.json"_s);
    if (meta.open(QIODevice::WriteOnly)) {
        meta.write("{}");
        meta.setFileTime(QDateTime::currentDateTime().addSecs(-ageS), QFileDevice::FileModificationTime);
    }
    return key;
}

void TestCompiler::cacheKeptUnderItsLimit()
{
    const QString dir = m_cache->path();
    // Old entries of 1 MB each, and a work folder that is never touched.
    const QString oldest = fakeEntry(dir, 'a', 1 << 20, 3000);
    const QString middle = fakeEntry(dir, 'b', 1 << 20, 2000);
    const QString recent = fakeEntry(dir, 'c', 1 << 20, 1000);
    QDir().mkpath(dir + u"/tmp-inuse"_s);

    Compiler compiler;
    compiler.setCacheDir(dir);
    CompileRequest req;
    req.source = kGoodKernel.arg(7);
    req.fileName = u"good.cu"_s;
    const CompileResult first = run(compiler, req);
    QVERIFY2(first.ok, qPrintable(first.errorMessage));
    QTest::qWait(200);
    QCOMPARE(cacheEntries(dir).size(), 4); // the default limit (2 GiB) keeps everything
    qint64 entryBytes = 0;
    for (const QFileInfo &f : QDir(dir + u'/' + first.hash).entryInfoList(QDir::Files))
        entryBytes += f.size();

    // A hit is a use: the entry, made the oldest of all, is the most recent again.
    const QString firstMeta = dir + u'/' + first.hash + u"/meta.json"_s;
    {
        QFile meta(firstMeta);
        QVERIFY(meta.open(QIODevice::ReadWrite));
        QVERIFY(meta.setFileTime(QDateTime::currentDateTime().addSecs(-5000), QFileDevice::FileModificationTime));
    }
    QVERIFY(run(compiler, req).cacheHit);
    QVERIFY(QFileInfo(firstMeta).lastModified() > QDateTime::currentDateTime().addSecs(-60));

    // Room for two compiled entries and one and a half old ones: the two least recently used old ones go.
    compiler.setCacheLimitBytes(2 * entryBytes + (1 << 20) + (1 << 19));
    req.source = kGoodKernel.arg(8);
    const CompileResult second = run(compiler, req);
    QVERIFY2(second.ok, qPrintable(second.errorMessage));
    QTRY_VERIFY(!cacheEntries(dir).contains(oldest));
    QTRY_VERIFY(!cacheEntries(dir).contains(middle));
    QTest::qWait(200);
    QCOMPARE(cacheEntries(dir).size(), 3);
    QVERIFY(cacheEntries(dir).contains(recent));
    QVERIFY(cacheEntries(dir).contains(first.hash));  // used a moment ago
    QVERIFY(cacheEntries(dir).contains(second.hash)); // just stored
    QVERIFY(QFileInfo::exists(dir + u"/tmp-inuse"_s));

    // The pass itself: down to 1 byte, everything but `keep` goes; 0 means no limit.
    QCOMPARE(Compiler::pruneCache(dir, 1, second.hash), 2);
    QCOMPARE(cacheEntries(dir), QStringList{second.hash});
    QCOMPARE(Compiler::pruneCache(dir, 0), 0);
}

void TestCompiler::keyCoversFlagsAndArch()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    CompileRequest req;
    req.source = kGoodKernel.arg(2);
    const CompileResult base = run(compiler, req);
    QVERIFY(base.ok);

    CompileRequest flagged = req;
    flagged.flags = {u"-DKFORGE_TEST_FLAG=1"_s};
    const CompileResult withFlag = run(compiler, flagged);
    QVERIFY(withFlag.ok);
    QVERIFY(!withFlag.cacheHit);
    QVERIFY(withFlag.hash != base.hash);
    QVERIFY(withFlag.commandLine.contains(u"-DKFORGE_TEST_FLAG=1"_s));

    CompileRequest otherArch = req;
    otherArch.arch = u"sm_80"_s;
    const CompileResult sm80 = run(compiler, otherArch);
    QVERIFY(sm80.ok);
    QVERIFY(!sm80.cacheHit);
    QVERIFY(sm80.hash != base.hash);
    QCOMPARE(sm80.resources.value(0).arch, u"sm_80"_s);

    CompileRequest comment = req;
    comment.source = kGoodKernel.arg(3);
    QVERIFY(run(compiler, comment).hash != base.hash);
}

void TestCompiler::resultsAreAlwaysAsynchronous()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    CompileRequest req;
    req.source = kGoodKernel.arg(4);
    QVERIFY(run(compiler, req).ok);
    QSignalSpy spy(&compiler, &Compiler::finished);
    compiler.compile(req); // a cache hit
    QCOMPARE(spy.count(), 0);
    QVERIFY(spy.wait(10000));
    QVERIFY(spy.at(0).at(1).value<CompileResult>().cacheHit);
}

void TestCompiler::brokenKernelDiagnostics()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    CompileRequest req;
    req.source = kBrokenKernel;
    req.fileName = u"broken.cu"_s;
    const CompileResult r = run(compiler, req);
    QVERIFY(!r.ok);
    QVERIFY(!r.cancelled);
    QCOMPARE(r.errorCount(), 2);
    QCOMPARE(r.diagnostics.at(0).file, u"broken.cu"_s);
    QCOMPARE(r.diagnostics.at(0).line, 4);
    QCOMPARE(r.diagnostics.at(0).column, 22);
    QVERIFY(r.diagnostics.at(0).message.contains(u"undefined_value"));
    QCOMPARE(r.diagnostics.at(1).line, 7);
    QCOMPARE(r.diagnostics.at(1).column, 12);
    QVERIFY2(r.errorMessage.contains(u"2 error"), qPrintable(r.errorMessage));
    QCOMPARE(r.firstError(), u"broken.cu:4:22: error: identifier \"undefined_value\" is undefined"_s);
    // Failures are not cached: nothing but the cache folder itself.
    const QStringList entries = QDir(m_cache->path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QVERIFY2(entries.isEmpty(), qPrintable(entries.join(u", ")));
}

void TestCompiler::linkErrorsAreDiagnostics()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    CompileRequest req;
    req.source = uR"(#include "kforge/kernel.h"
extern "C" int missing_thing(int);
KF_ENTRY(in, nin, out, nout, params, stream) { return missing_thing(1); }
)"_s;
    const CompileResult r = run(compiler, req);
    QVERIFY(!r.ok);
    QVERIFY(r.errorCount() >= 1);
    QCOMPARE(r.diagnostics.at(0).tool, u"ld"_s);
    QVERIFY2(r.diagnostics.at(0).message.contains(u"undefined reference to `missing_thing'"),
             qPrintable(r.diagnostics.at(0).message));
}

void TestCompiler::resourceUsage()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    CompileRequest req;
    req.source = kGoodKernel.arg(5);
    const CompileResult good = run(compiler, req);
    QVERIFY(good.ok);
    QCOMPARE(good.resources.size(), 1);
    const KernelResources scale = good.resources.at(0);
    QCOMPARE(scale.name, u"scale(float const*, float*, int)"_s);
    QCOMPARE(scale.mangledName, u"_Z5scalePKfPfi"_s);
    QCOMPARE(scale.sharedBytes, 1024);
    QCOMPARE(scale.barriers, 1);
    QVERIFY(scale.registers > 0 && scale.registers < 32);
    QVERIFY(!scale.spills());

    // 1024 threads x 2 blocks per SM leave 32 registers a thread: ptxas caps there and spills the rest.
    req.source = kSpillingKernel;
    const CompileResult heavy = run(compiler, req);
    QVERIFY(heavy.ok);
    QCOMPARE(heavy.resources.size(), 1);
    QCOMPARE(heavy.resources.at(0).registers, 32);
    QVERIFY(heavy.resources.at(0).spillStoreBytes > 0);
    QVERIFY(heavy.resources.at(0).spillLoadBytes > 0);
    QVERIFY(heavy.resources.at(0).stackBytes > 0);
}

void TestCompiler::ptxOutput()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    CompileRequest req;
    req.source = kGoodKernel.arg(6);
    req.flags = {u"-lcublas"_s}; // a link flag of the task is dropped for PTX
    req.output = CompileOutput::Ptx;
    const CompileResult r = run(compiler, req);
    QVERIFY2(r.ok, qPrintable(r.errorMessage + r.log));
    QVERIFY(r.artifactPath.endsWith(u".ptx"));
    QVERIFY(r.text.contains(u".target sm_90"));
    QVERIFY(r.text.contains(u".entry _Z5scalePKfPfi"));
    QVERIFY(!r.commandLine.contains(u"-lcublas"_s));
    const CompileResult hit = run(compiler, req);
    QVERIFY(hit.cacheHit);
    QCOMPARE(hit.text, r.text);
}

void TestCompiler::sassOutputOrClearMessage()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    CompileRequest req;
    req.source = kGoodKernel.arg(7);
    req.output = CompileOutput::Sass;
    const CompileResult r = run(compiler, req);
    const QString nvcc = compiler.nvccPath();
    const bool haveTool = !CudaToolkit::locateTool(u"cuobjdump"_s, nvcc).isEmpty()
                          || !CudaToolkit::locateTool(u"nvdisasm"_s, nvcc).isEmpty();
    if (haveTool) {
        QVERIFY2(r.ok, qPrintable(r.errorMessage + r.log));
        QVERIFY(r.text.contains(u"_Z5scalePKfPfi"));
        QVERIFY(r.text.contains(u"EXIT"));
    } else {
        QVERIFY(!r.ok);
        QVERIFY2(r.errorMessage.contains(u"cuobjdump") && r.errorMessage.contains(u"nvdisasm"), qPrintable(r.errorMessage));
        QCOMPARE(r.resources.size(), 1); // the cubin compiled; resources are still known
    }
}

void TestCompiler::hitRenamesWarningsFile()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    CompileRequest req;
    req.source = uR"(#include "kforge/kernel.h"
__global__ void k(float *x)
{
    int unused = 3;
    x[threadIdx.x] = 1.f;
}
KF_ENTRY(in, nin, out, nout, params, stream) { k<<<1, 32, 0, stream>>>((float *)out[0].data); return 0; }
)"_s;
    req.fileName = u"first.cu"_s;
    const CompileResult a = run(compiler, req);
    QVERIFY(a.ok);
    QCOMPARE(a.warningCount(), 1);
    QCOMPARE(a.diagnostics.at(0).file, u"first.cu"_s);
    QCOMPARE(a.diagnostics.at(0).line, 4);
    req.fileName = u"second.cu"_s;
    const CompileResult b = run(compiler, req);
    QVERIFY(b.cacheHit);
    QCOMPARE(b.diagnostics.at(0).file, u"second.cu"_s);
}

void TestCompiler::parallelQueueAndSharedKey()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    compiler.setMaxParallel(2);
    QSignalSpy started(&compiler, &Compiler::started);
    QSignalSpy finished(&compiler, &Compiler::finished);
    QList<int> ids;
    for (int i = 0; i < 3; ++i) {
        CompileRequest req;
        req.source = kGoodKernel.arg(100 + i);
        ids << compiler.compile(req);
    }
    CompileRequest same;
    same.source = kGoodKernel.arg(100); // the same key as the first: answered from its compile
    ids << compiler.compile(same);
    QCOMPARE(compiler.pendingJobs(), 4);
    while (finished.count() < 4)
        QVERIFY(finished.wait(60000));
    QCOMPARE(compiler.pendingJobs(), 0);
    QHash<int, CompileResult> results;
    for (const auto &args : std::as_const(finished))
        results.insert(args.at(0).toInt(), args.at(1).value<CompileResult>());
    for (int id : ids)
        QVERIFY(results.value(id).ok);
    QVERIFY(!results.value(ids[0]).cacheHit);
    QVERIFY(results.value(ids[3]).cacheHit);
    QCOMPARE(results.value(ids[3]).artifactPath, results.value(ids[0]).artifactPath);
    QCOMPARE(started.count(), 4);
}

// A cache hit, and a job with the key of a compile in flight, queued behind misses that wait for the only slot:
// answered at once (the first from the cache, the second with its leader), not after the misses ahead of them.
void TestCompiler::hitDoesNotWaitForASlot()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    compiler.setMaxParallel(1);
    CompileRequest cached;
    cached.source = kGoodKernel.arg(300);
    QVERIFY(run(compiler, cached).ok);
    QSignalSpy finished(&compiler, &Compiler::finished);
    CompileRequest a, b;
    a.source = kGoodKernel.arg(301);
    b.source = kGoodKernel.arg(302);
    const int missA = compiler.compile(a);
    const int missB = compiler.compile(b);
    const int hit = compiler.compile(cached);
    const int followerA = compiler.compile(a);
    while (finished.count() < 4)
        QVERIFY(finished.wait(60000));
    QList<int> order;
    QHash<int, CompileResult> results;
    for (const auto &args : std::as_const(finished)) {
        order << args.at(0).toInt();
        results.insert(args.at(0).toInt(), args.at(1).value<CompileResult>());
    }
    QCOMPARE(order.first(), hit); // while missA runs
    QVERIFY(results.value(hit).cacheHit);
    QVERIFY2(order.indexOf(followerA) < order.indexOf(missB), "the follower waited for missB's slot");
    QVERIFY(results.value(followerA).cacheHit);
    QCOMPARE(results.value(followerA).artifactPath, results.value(missA).artifactPath);
    QVERIFY(results.value(missB).ok && !results.value(missB).cacheHit);
}

void TestCompiler::cancelQueuedJob()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    compiler.setMaxParallel(1);
    compiler.setHostPch(false); // a header built in the background would be a process working in the cache
    QSignalSpy finished(&compiler, &Compiler::finished);
    CompileRequest a;
    a.source = kGoodKernel.arg(200);
    CompileRequest b;
    b.source = kGoodKernel.arg(201);
    const int first = compiler.compile(a);
    const int second = compiler.compile(b);
    compiler.cancel(second);
    while (finished.count() < 2)
        QVERIFY(finished.wait(60000));
    for (const auto &args : std::as_const(finished)) {
        const auto r = args.at(1).value<CompileResult>();
        if (args.at(0).toInt() == second) {
            QVERIFY(r.cancelled);
            QVERIFY(!r.ok);
        } else {
            QCOMPARE(args.at(0).toInt(), first);
            QVERIFY(r.ok);
        }
    }

    // Cancelling a running nvcc kills it, and every tool it started with it: gcc's cc1plus, two processes
    // below the step that started it, too (the steps run as one process group). A 512 Ki-element initializer
    // keeps the preprocessors and compilers busy long enough to be caught at work.
    QString slow = u"#include \"kforge/kernel.h\"\n#define Z0 0, 0,\n"_s;
    for (int i = 1; i <= 18; ++i)
        slow += u"#define Z%1 Z%2 Z%2\n"_s.arg(i).arg(i - 1);
    slow += u"static const int kBig[] = { Z18 0 };\nKF_ENTRY(in, nin, out, nout, params, stream) { return kBig[nin]; }\n"_s;
    for (const bool parallel : {true, false}) {
        compiler.setParallelSteps(parallel);
        CompileRequest c;
        c.source = slow + u"// %1\n"_s.arg(parallel);
        finished.clear();
        QSignalSpy startedSpy(&compiler, &Compiler::started);
        const int third = compiler.compile(c);
        QVERIFY(startedSpy.wait(10000));
        QTRY_VERIFY_WITH_TIMEOUT(processesWorkingIn(m_cache->path()).join(u' ').contains(u"cc1plus"_s), 20000);
        compiler.cancel(third);
        QVERIFY(finished.wait(10000));
        QVERIFY(finished.at(0).at(1).value<CompileResult>().cancelled);
        // Killed, not finished: a cc1plus left running would go on for a few hundred milliseconds more.
        QTRY_VERIFY2_WITH_TIMEOUT(processesWorkingIn(m_cache->path()).isEmpty(),
                                  qPrintable(processesWorkingIn(m_cache->path()).join(u'\n')), 200);
    }
}

void TestCompiler::parallelStepsMatchPlainNvcc_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<bool>("ok");
    QTest::newRow("good") << kGoodKernel.arg(300) << QStringList() << true;
    QTest::newRow("spills") << kSpillingKernel << QStringList() << true;
    QTest::newRow("two archs, fast math")
        << kGoodKernel.arg(301) << QStringList{u"-gencode"_s, u"arch=compute_80,code=sm_80"_s, u"-use_fast_math"_s}
        << true;
    // relocatable device code keeps nvcc's device link (NvccPlan::dropDeviceLink)
    QTest::newRow("rdc") << kGoodKernel.arg(303) << QStringList{u"-rdc=true"_s} << true;
    QTest::newRow("host and device errors") << kBrokenKernel << QStringList() << false;
    QTest::newRow("device-only error") << uR"(#include "kforge/kernel.h"
__global__ void k(float *x) { x[threadIdx.x] = __no_such_intrinsic(1.0f); }
KF_ENTRY(in, nin, out, nout, params, stream) { k<<<1, 32, 0, stream>>>((float *)out[0].data); return 0; }
)"_s << QStringList() << false;
    QTest::newRow("warning") << uR"(#include "kforge/kernel.h"
__global__ void k(float *x) { int unused = 3; x[threadIdx.x] = 1.f; }
KF_ENTRY(in, nin, out, nout, params, stream) { k<<<1, 32, 0, stream>>>((float *)out[0].data); return 0; }
)"_s << QStringList() << true;
    QTest::newRow("ptxas error") << uR"(#include "kforge/kernel.h"
__global__ void big(float *x) { __shared__ float buf[20000]; buf[threadIdx.x] = x[threadIdx.x]; __syncthreads();
                                x[threadIdx.x] = buf[(threadIdx.x * 7) % 20000]; }
KF_ENTRY(in, nin, out, nout, params, stream) { big<<<1, 32, 0, stream>>>((float *)out[0].data); return 0; }
)"_s << QStringList() << false;
    QTest::newRow("link error") << uR"(#include "kforge/kernel.h"
extern "C" int missing_thing(int);
KF_ENTRY(in, nin, out, nout, params, stream) { return missing_thing(1); }
)"_s << QStringList() << false;
}

// The host front end and the device compile overlap, and nothing else changes: the same verdict, the same
// diagnostics (once each, though two front ends parse the source), the same kernels, the same log.
void TestCompiler::parallelStepsMatchPlainNvcc()
{
    QFETCH(QString, source);
    QFETCH(QStringList, flags);
    QFETCH(bool, ok);
    CompileRequest req;
    req.source = source;
    req.fileName = u"candidate.cu"_s;
    req.flags = flags;
    QTemporaryDir plainCache;
    Compiler plain;
    plain.setCacheDir(plainCache.path());
    plain.setParallelSteps(false);
    Compiler parallel;
    parallel.setCacheDir(m_cache->path());
    QVERIFY(parallel.parallelSteps());
    const CompileResult a = run(plain, req);
    const CompileResult b = run(parallel, req);
    QCOMPARE(a.ok, ok);
    QCOMPARE(b.ok, ok);
    QCOMPARE(b.errorMessage, a.errorMessage);
    QStringList da, db;
    for (const Diagnostic &d : a.diagnostics)
        da << d.toString();
    for (const Diagnostic &d : b.diagnostics)
        db << d.toString();
    QCOMPARE(db, da);
    QCOMPARE(b.resources, a.resources);
    QCOMPARE(b.commandLine, a.commandLine); // what it is equivalent to, for the record
    // The logs differ only in ptxas's own timings and in the names of intermediate files.
    static const QRegularExpression noise(u"Compile time = [0-9.]+ ms|/tmp/tmpxft_[0-9a-f]+_[0-9a-f]+-[0-9]+_|"
                                          u"tmpxft_[0-9a-f]+_[0-9a-f]+-[0-9]+_|\\.nvcc-steps/"_s);
    QString la = a.log, lb = b.log;
    QCOMPARE(lb.replace(noise, QString()), la.replace(noise, QString()));
    if (ok) {
        QVERIFY(QFileInfo(b.artifactPath).size() > 0);
        const QStringList names = phaseNames(b);
        QVERIFY2(names.contains(u"host: cudafe++"_s) && names.contains(u"device: cicc"_s), qPrintable(names.join(u", ")));
        // the device link runs only where there is relocatable device code to link
        QCOMPARE(names.contains(u"nvlink"_s), flags.contains(u"-rdc=true"_s));
        QVERIFY(std::all_of(b.phases.cbegin(), b.phases.cend(), [](const CompilePhase &p) { return p.ms > 0; }));
        QCOMPARE(a.phases.size(), 1);
        QCOMPARE(a.phases.first().name, u"nvcc"_s);
        // The steps' intermediate files are gone from the cache entry.
        QVERIFY(!QFileInfo::exists(QFileInfo(b.artifactPath).absolutePath() + u"/.nvcc-steps"_s));
    }
}

void TestCompiler::unknownPlanRunsPlainNvcc()
{
    // With --threads nvcc redirects its tools' output to files of its own: that plan runs as plain nvcc.
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    CompileRequest req;
    req.source = kGoodKernel.arg(302);
    req.flags = {u"--threads=2"_s};
    const CompileResult r = run(compiler, req);
    QVERIFY2(r.ok, qPrintable(r.errorMessage + u'\n' + r.log));
    QCOMPARE(r.resources.size(), 1);
    const QStringList names = phaseNames(r);
    QCOMPARE(names, (QStringList{u"nvcc --dryrun"_s, u"nvcc"_s})); // the plan was looked at, then nvcc ran
    // Cache hits carry no phases: nothing ran.
    const CompileResult hit = run(compiler, req);
    QVERIFY(hit.cacheHit);
    QVERIFY(hit.phases.isEmpty());
}

void TestCompiler::badArch()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    CompileRequest req;
    req.source = kGoodKernel.arg(8);
    req.arch = u"sm_90; rm -rf /"_s;
    const CompileResult r = run(compiler, req);
    QVERIFY(!r.ok);
    QVERIFY(r.errorMessage.contains(u"not a GPU architecture"));

    req.arch = u"sm_99"_s; // well-formed, unknown to nvcc: its own message
    const CompileResult unknown = run(compiler, req);
    QVERIFY(!unknown.ok);
    QVERIFY2(unknown.firstError().contains(u"Unsupported gpu architecture 'sm_99'"), qPrintable(unknown.firstError()));
}

void TestCompiler::missingNvcc()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    compiler.setNvccPath(m_cache->path() + u"/no/such/nvcc"_s);
    QVERIFY(compiler.nvccPath().isEmpty());
    CompileRequest req;
    req.source = kGoodKernel.arg(9);
    const CompileResult r = run(compiler, req);
    QVERIFY(!r.ok);
    QCOMPARE(r.errorMessage, CudaToolkit::missingNvccMessage());
    QVERIFY(r.errorMessage.contains(u"CUDA toolkit"));
}

QTEST_GUILESS_MAIN(TestCompiler)
#include "tst_compiler.moc"
