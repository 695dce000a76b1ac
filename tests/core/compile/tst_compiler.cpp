// The compile service with the real nvcc: cache misses and hits, diagnostics of broken kernels, per-kernel
// resources, PTX/SASS, the queue, cancellation and the missing-toolkit message.
#include "core/compile/compiler.h"
#include "core/compile/cudatoolkit.h"

#include <QDir>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

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

} // namespace

class TestCompiler : public QObject
{
    Q_OBJECT
private:
    CompileResult run(Compiler &compiler, const CompileRequest &request);
    std::unique_ptr<QTemporaryDir> m_cache;

private Q_SLOTS:
    void initTestCase();
    void init();
    void cacheMissThenHit();
    void keyCoversFlagsAndArch();
    void resultsAreAlwaysAsynchronous();
    void brokenKernelDiagnostics();
    void linkErrorsAreDiagnostics();
    void resourceUsage();
    void ptxOutput();
    void sassOutputOrClearMessage();
    void hitRenamesWarningsFile();
    void parallelQueueAndSharedKey();
    void cancelQueuedJob();
    void badArch();
    void missingNvcc();
};

CompileResult TestCompiler::run(Compiler &compiler, const CompileRequest &request)
{
    QSignalSpy spy(&compiler, &Compiler::finished);
    const int id = compiler.compile(request);
    for (int waited = 0; waited < 40; ++waited) {
        for (const auto &args : std::as_const(spy))
            if (args.at(0).toInt() == id)
                return args.at(1).value<CompileResult>();
        spy.wait(5000);
    }
    qWarning("compile job %d did not finish", id);
    return {};
}

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
    QVERIFY2(hit.elapsedMs < miss.elapsedMs / 5, qPrintable(u"hit %1 ms, miss %2 ms"_s.arg(hit.elapsedMs).arg(miss.elapsedMs)));

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
        QVERIFY2(r.errorMessage.contains(u"cuobjdump") && r.errorMessage.contains(u"nvdisasm"),
                 qPrintable(r.errorMessage));
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

void TestCompiler::cancelQueuedJob()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    compiler.setMaxParallel(1);
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

    // Cancelling a running nvcc kills it.
    CompileRequest c;
    c.source = kGoodKernel.arg(202);
    finished.clear();
    QSignalSpy startedSpy(&compiler, &Compiler::started);
    const int third = compiler.compile(c);
    QVERIFY(startedSpy.wait(10000));
    compiler.cancel(third);
    QVERIFY(finished.wait(10000));
    QVERIFY(finished.at(0).at(1).value<CompileResult>().cancelled);
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
