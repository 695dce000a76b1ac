// AssemblyFetcher through a real nvcc (PTX with its line table, the .so) and the worker's disassemble
// request (the scripted worker stands in for kforge-worker, whose disassembler output is tested on real
// listings in tst_asmlisting); what it says when nothing can disassemble.
#include "../workerpool/workertesthelpers.h"
#include "core/compile/compiler.h"
#include "core/compile/cudatoolkit.h"
#include "core/sourcelevel/assemblyfetcher.h"
#include "core/workerpool/workerpool.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

const QString kKernel = uR"(#include "kforge/kernel.h"
__global__ void scale(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] * 2.f;
}
KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin; (void)nout; (void)params;
    const int n = (int)in[0].shape[0];
    scale<<<(n + 255) / 256, 256, 0, stream>>>((const float *)in[0].data, (float *)out[0].data, n);
    return cudaGetLastError();
}
)"_s;

Assembly fetchOne(AssemblyFetcher &fetcher, const CompileRequest &request)
{
    QSignalSpy done(&fetcher, &AssemblyFetcher::finished);
    const int id = fetcher.fetch(request);
    if (!done.wait(180000) || done.first().at(0).toInt() != id)
        qFatal("no finished() for the fetch");
    return done.first().at(1).value<Assembly>();
}

// A compiler on the test's cache and a pool of the one worker `c`: what the fetcher asks for PTX and SASS.
struct FetchTools {
    Compiler compiler;
    WorkerPool pool;

    FetchTools(const QString &cacheDir, const WorkerConfig &c)
    {
        compiler.setCacheDir(cacheDir);
        pool.setWorkers({c});
    }
};

WorkerConfig worker(const QString &command, const QString &name = {})
{
    WorkerConfig c;
    c.command = command;
    c.name = name;
    return c;
}

} // namespace

class TestAssemblyFetcher : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void ptxAndSassThroughTheWorker();
    void workerWithoutDisassembler();
    void noWorkerAtAll();
    void realWorker();

private:
    bool localTools() const;
    CompileRequest request() const;
    std::unique_ptr<QTemporaryDir> m_cache;
};

void TestAssemblyFetcher::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    if (Compiler().nvccPath().isEmpty())
        QSKIP("SKIP: no nvcc on this machine");
    m_cache = std::make_unique<QTemporaryDir>();
}

bool TestAssemblyFetcher::localTools() const
{
    const QString nvcc = Compiler().nvccPath();
    return !CudaToolkit::locateTool(u"nvdisasm"_s, nvcc).isEmpty()
           || !CudaToolkit::locateTool(u"cuobjdump"_s, nvcc).isEmpty();
}

static CompileRequest CompileRequestFor(const QString &source)
{
    CompileRequest r;
    r.source = source;
    r.fileName = u"candidate.cu"_s;
    r.arch = u"sm_90"_s;
    return r;
}

CompileRequest TestAssemblyFetcher::request() const
{
    return CompileRequestFor(kKernel);
}

void TestAssemblyFetcher::ptxAndSassThroughTheWorker()
{
    WorkerConfig c = worker(test::scriptedWorker(u"normal"_s));
    c.startTimeoutMs = 20000;
    FetchTools tools(m_cache->path(), c);
    AssemblyFetcher fetcher(&tools.compiler, &tools.pool);
    QSignalSpy updated(&fetcher, &AssemblyFetcher::updated);
    const Assembly a = fetchOne(fetcher, request());
    QCOMPARE(updated.size(), 2); // PTX and SASS, each as it arrives
    QCOMPARE(a.fileName, u"candidate.cu"_s);
    QVERIFY2(a.ptxError.isEmpty(), qPrintable(a.ptxError));
    QCOMPARE(a.ptx.target, u"sm_90"_s);
    QVERIFY(a.ptx.function(u"_Z5scalePKfPfi"_s));
    // `c[i] = a[i] * 2.f;` is line 6: its global load is there in the PTX line table.
    bool load = false;
    for (int i : a.ptx.linesFor(u"candidate.cu"_s, 6))
        load = load || a.ptx.lines.at(i).text.contains(u"ld.global"_s);
    QVERIFY(load);
    QVERIFY(!a.resources.isEmpty());
    QVERIFY2(a.sassError.isEmpty(), qPrintable(a.sassError));
    QVERIFY(a.sass.function(u"_Z5scalePKfPfi"_s));
    if (!localTools()) {
        QCOMPARE(a.sassTool, u"nvdisasm 13.0.88 on worker 1"_s);
        QCOMPARE(a.sass.functions.first().instructions.size(), 2);
        QCOMPARE(lineInFile(a.sass.functions.first().instructions.at(1).where, u"kernel.cu"_s), 5);
    }
}

void TestAssemblyFetcher::workerWithoutDisassembler()
{
    if (localTools())
        QSKIP("SKIP: this toolkit has its own disassembler; the worker is not asked");
    FetchTools tools(m_cache->path(), worker(test::scriptedWorker(u"nodisasm"_s), u"gpu-box"_s));
    AssemblyFetcher fetcher(&tools.compiler, &tools.pool);
    const Assembly a = fetchOne(fetcher, request());
    QVERIFY(a.ptxError.isEmpty()); // the rest works
    QVERIFY(a.sass.functions.isEmpty());
    QVERIFY2(a.sassError.contains(u"the worker host has no disassembler"_s), qPrintable(a.sassError));
    QVERIFY(a.sassError.contains(u"PATH=/usr/bin"_s)); // the worker's own account
    QVERIFY(a.sassError.contains(u"Install the CUDA toolkit's nvdisasm"_s));
}

void TestAssemblyFetcher::noWorkerAtAll()
{
    if (localTools())
        QSKIP("SKIP: this toolkit has its own disassembler");
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    AssemblyFetcher fetcher(&compiler, nullptr);
    const Assembly a = fetchOne(fetcher, request());
    QVERIFY(a.ptxError.isEmpty());
    QVERIFY2(a.sassError.contains(u"has neither nvdisasm nor cuobjdump"_s), qPrintable(a.sassError));
    QVERIFY(a.sassError.contains(u"Add a worker"_s));

    // A source that does not compile: both halves say so.
    const Assembly bad = fetchOne(fetcher, CompileRequestFor(u"__global__ void k() { undefined_thing; }\n"_s));
    QVERIFY2(bad.ptxError.contains(u"undefined_thing"_s), qPrintable(bad.ptxError));
    QVERIFY2(bad.sassError.contains(u"does not compile"_s), qPrintable(bad.sassError));
}

void TestAssemblyFetcher::realWorker()
{
    // kforge-worker itself (KFORGE_WORKER): on a GPU host with the toolkit, SASS with line markers of
    // candidate.cu; on a host without nvdisasm and cuobjdump, the worker's own account of what is missing.
    const QString command = test::realWorker();
    if (command.isEmpty())
        QSKIP("SKIP: kforge-worker is not built");
    if (localTools())
        QSKIP("SKIP: this toolkit has its own disassembler; the worker is not asked");
    FetchTools tools(m_cache->path(), worker(command, u"real"_s));
    AssemblyFetcher fetcher(&tools.compiler, &tools.pool);
    const Assembly a = fetchOne(fetcher, request());
    QVERIFY(a.ptxError.isEmpty());
    if (a.sassError.contains(u"does not know the disassemble request"_s))
        QSKIP("SKIP: this kforge-worker predates the disassemble request");
    if (!a.sassError.isEmpty()) {
        QVERIFY2(a.sassError.contains(u"no disassembler"_s) || a.sassError.contains(u"no worker is running"_s),
                 qPrintable(a.sassError));
        return;
    }
    const SassFunction *f = a.sass.function(u"_Z5scalePKfPfi"_s);
    QVERIFY(f);
    QVERIFY(a.sass.hasLineInfo());
    bool store = false; // `c[i] = a[i] * 2.f;` (line 6): its global store
    for (const SassInstruction &i : f->instructions)
        store = store || (i.baseOpcode() == u"STG" && lineInFile(i.where, u"candidate.cu"_s) == 6);
    QVERIFY(store);
    qInfo("SASS from %s", qPrintable(a.sassTool));
}

QTEST_GUILESS_MAIN(TestAssemblyFetcher)
#include "tst_assemblyfetcher.moc"
