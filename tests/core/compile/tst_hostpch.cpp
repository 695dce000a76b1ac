// HostPch through the Compiler with the real nvcc and gcc: the first compile builds the header in the background,
// a later one includes it and gets the same host code, and a header that breaks a compile is dropped.
#include "core/compile/compiler.h"
#include "core/compile/cudatoolkit.h"
#include "compilerun.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;
using namespace kforge;
using kforge::test::phaseNames;
using kforge::test::run;

namespace {

const QString kKernel = uR"(#include "kforge/kernel.h"
// variant %1
__global__ void scale(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] * 2.f;
}
KF_ENTRY(in, nin, out, nout, params, stream)
{
    int n = (int)in[0].numel;
    scale<<<(n + 255) / 256, 256, 0, stream>>>((const float *)in[0].data, (float *)out[0].data, n);
    return (int)cudaGetLastError();
}
)"_s;

// The host code of a shared object as objdump disassembles it (its first lines name the file).
QString hostDisassembly(const QString &path)
{
    QProcess objdump;
    objdump.start(u"objdump"_s, {u"-d"_s, u"--no-show-raw-insn"_s, u"-j"_s, u".text"_s, path});
    if (!objdump.waitForFinished(30000) || objdump.exitCode() != 0)
        return {};
    return QString::fromUtf8(objdump.readAllStandardOutput()).section(u'\n', 3);
}

QStringList readyHeaders(const QString &cache)
{
    QStringList found;
    for (const QFileInfo &entry : QDir(cache + u"/host-pch"_s).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot))
        if (QFileInfo::exists(entry.absoluteFilePath() + u"/prefix.h.gch"_s))
            found << entry.absoluteFilePath();
    return found;
}

} // namespace

class TestHostPch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        if (CudaToolkit::locateNvcc().isEmpty())
            QSKIP("no nvcc on this machine: the compile service needs a CUDA toolkit");
    }
    void init()
    {
        m_cache = std::make_unique<QTemporaryDir>();
        QVERIFY(m_cache->isValid());
    }
    void sameObjectWithTheHeader();
    void brokenHeaderIsDropped();

private:
    std::unique_ptr<QTemporaryDir> m_cache;
};

// The first compile starts building a precompiled header of the CUDA headers' part of the host code; a later
// compile of another kernel uses it, and gcc makes the same host code as without it.
void TestHostPch::sameObjectWithTheHeader()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    QVERIFY(compiler.hostPch());
    CompileRequest first;
    first.source = kKernel.arg(500);
    first.fileName = u"candidate.cu"_s;
    const CompileResult a = run(compiler, first);
    QVERIFY2(a.ok, qPrintable(a.errorMessage + u'\n' + a.log));
    QVERIFY2(phaseNames(a).contains(u"gcc (compiling)"_s), qPrintable(phaseNames(a).join(u", ")));
    QTRY_COMPARE_WITH_TIMEOUT(readyHeaders(m_cache->path()).size(), 1, 120000);

    CompileRequest second = first;
    second.source = kKernel.arg(501);
    const CompileResult b = run(compiler, second);
    QVERIFY2(b.ok, qPrintable(b.errorMessage + u'\n' + b.log));
    QVERIFY2(phaseNames(b).contains(u"gcc (compiling, precompiled header)"_s), qPrintable(phaseNames(b).join(u", ")));
    const QString withHeader = hostDisassembly(b.artifactPath);
    QVERIFY(withHeader.contains(u"<kf_entry>:"_s));

    // The same kernel again without the header, in the same cache (work folders of the same length, so that
    // the embedded device code, which names them, has the same size and the host code the same addresses).
    QVERIFY(QDir(QFileInfo(b.artifactPath).absolutePath()).removeRecursively());
    Compiler plain;
    plain.setCacheDir(m_cache->path());
    plain.setHostPch(false);
    const CompileResult c = run(plain, second);
    QVERIFY2(c.ok, qPrintable(c.errorMessage + u'\n' + c.log));
    QVERIFY(!phaseNames(c).join(u' ').contains(u"precompiled"_s));
    QCOMPARE(hostDisassembly(c.artifactPath), withHeader);
    QCOMPARE(c.resources, b.resources);
}

// A header that breaks a compile (here its text replaced and its compiled form unreadable) costs that compile a
// second host compile without it, and is not used again.
void TestHostPch::brokenHeaderIsDropped()
{
    Compiler compiler;
    compiler.setCacheDir(m_cache->path());
    CompileRequest req;
    req.source = kKernel.arg(510);
    QVERIFY(run(compiler, req).ok);
    QTRY_COMPARE_WITH_TIMEOUT(readyHeaders(m_cache->path()).size(), 1, 120000);
    const QString entry = readyHeaders(m_cache->path()).first();
    for (const QString &name : {u"prefix.h"_s, u"prefix.h.gch"_s}) {
        QFile f(entry + u'/' + name);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("#error not the CUDA headers\n");
    }
    req.source = kKernel.arg(511);
    const CompileResult r = run(compiler, req);
    QVERIFY2(r.ok, qPrintable(r.errorMessage + u'\n' + r.log));
    QVERIFY(!r.log.contains(u"not the CUDA headers"_s));
    QVERIFY(!phaseNames(r).join(u' ').contains(u"precompiled"_s));
    QVERIFY(QFileInfo::exists(entry + u"/failed"_s));
    QVERIFY(!QFileInfo::exists(entry + u"/prefix.h.gch"_s));
    req.source = kKernel.arg(512);
    const CompileResult again = run(compiler, req);
    QVERIFY(again.ok);
    QVERIFY2(phaseNames(again).contains(u"gcc (compiling)"_s), qPrintable(phaseNames(again).join(u", ")));
    QVERIFY(!QFileInfo::exists(entry + u"/building"_s));
}

QTEST_GUILESS_MAIN(TestHostPch)
#include "tst_hostpch.moc"
