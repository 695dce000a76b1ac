// Exported projects configure and build with the real CMake and nvcc (no GPU needed): the `cmake` format
// standalone (library, reference, test, benchmark), and the `into` format inside a host project that
// calls the kernel from plain C++. With a GPU (label gpu: tst_exportgpu) the test and benchmark also run.
#include "exportfixture.h"

#include "core/compile/cudatoolkit.h"
#include "core/export/cmakeexporter.h"
#include "core/export/exportcontext.h"
#include "core/export/exporter.h"
#include "core/export/exportplan.h"
#include "core/export/sessionexportsource.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

using Run = test::ProcessRun;
using test::runProcess;

bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
}

} // namespace

class TestExportBuild : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cmakeProjectBuilds_data();
    void cmakeProjectBuilds();
    void intoProjectBuilds();

private:
    bool configureAndBuild(const QString &source, const QString &build, const QStringList &extra = {});

    QTemporaryDir m_dir;
    QString m_cmake;
    QString m_nvcc;
    QProcessEnvironment m_env;
};

void TestExportBuild::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_cmake = QStandardPaths::findExecutable(u"cmake"_s);
    m_nvcc = CudaToolkit::locateNvcc();
    if (m_cmake.isEmpty())
        QSKIP("no cmake on PATH");
    if (m_nvcc.isEmpty())
        QSKIP("no CUDA toolkit (nvcc) found");
    m_env = QProcessEnvironment::systemEnvironment();
    m_env.insert(u"CUDACXX"_s, m_nvcc);
    m_env.insert(u"CUDAToolkit_ROOT"_s, QFileInfo(m_nvcc).absolutePath() + u"/.."_s);
}

bool TestExportBuild::configureAndBuild(const QString &source, const QString &build, const QStringList &extra)
{
    QStringList args{u"-S"_s, source, u"-B"_s, build, u"-DCMAKE_BUILD_TYPE=Release"_s};
    if (!QStandardPaths::findExecutable(u"ninja"_s).isEmpty())
        args << u"-G"_s << u"Ninja"_s;
    const Run configure = runProcess(m_cmake, args + extra, source, 300000, m_env);
    if (!configure.ok()) {
        qWarning().noquote() << configure.output;
        return false;
    }
    const Run compile = runProcess(m_cmake, {u"--build"_s, build, u"-j2"_s}, source, 1200000, m_env);
    if (!compile.ok())
        qWarning().noquote() << compile.output;
    return compile.ok();
}

void TestExportBuild::cmakeProjectBuilds_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<bool>("fromSession");
    // naive defines a __global__ scatter_diagonal exactly like the reference does: the two must not clash.
    QTest::newRow("diag_matmul naive, cuBLAS, from a session") << u"diag_matmul"_s << u"naive"_s << true;
    QTest::newRow("rmsnorm, bf16 and a fractional param") << u"rmsnorm"_s << u"naive"_s << false;
    // The reference allocates with cudaMallocAsync per call; the benchmark sets up the worker's pool.
    QTest::newRow("linear_rowsum, stream-ordered temporaries, from a session") << u"linear_rowsum"_s << u"good"_s << true;
}

void TestExportBuild::cmakeProjectBuilds()
{
    QFETCH(QString, task);
    QFETCH(QString, variant);
    QFETCH(bool, fromSession);
    QString error;
    std::optional<ExportInput> in;
    if (fromSession) {
        SessionStore store;
        QVERIFY2(test::makeSession(store, m_dir.filePath(task + u".kforge"_s), task, {{variant, 0.6}}, &error),
                 qPrintable(error));
        in = SessionExportSource::build(store, test::variantByLabel(store, variant), &error);
    } else {
        in = test::inputFromTask(task, variant, 2.0, &error);
    }
    QVERIFY2(in, qPrintable(error));
    ExportOptions options;
    options.licenseText = u"Copyright 2026 Example Corp.\nSPDX-License-Identifier: MIT"_s;
    const ExportBundle b = Exporter::generate(*in, options);
    QVERIFY2(b.ok(), qPrintable(b.error));
    const QString src = m_dir.filePath(task + u"-src"_s);
    const QString build = m_dir.filePath(task + u"-build"_s);
    QVERIFY(ExportPlan::make(src, b).write(false, &error));
    // The generated C++ (wrapper, test, benchmark) builds warning-free; the CUDA sources are the task's own.
    QVERIFY(configureAndBuild(src, build, {u"-DCMAKE_CXX_FLAGS=-Wall -Wextra -Wpedantic -Werror"_s}));

    const QString ns = ExportContext(*in).ns;
    for (const QString &artifact : QStringList{u"test_"_s + ns, u"bench_"_s + ns, u"lib"_s + ns + u"_kernel.a"_s,
                                               u"lib"_s + ns + u"_reference.so"_s})
        QVERIFY2(QFileInfo::exists(build + u'/' + artifact), qPrintable(artifact));

    // The reference library exports its renamed entry point and nothing of its helpers.
    const QString nm = QStandardPaths::findExecutable(u"nm"_s);
    if (!nm.isEmpty()) {
        const Run syms = runProcess(nm, {u"-D"_s, u"--defined-only"_s, build + u"/lib"_s + ns + u"_reference.so"_s},
                                    build, 60000, m_env);
        QVERIFY(syms.ok());
        QVERIFY2(syms.output.contains(ns + u"_reference_entry"_s), qPrintable(syms.output));
        QVERIFY2(!syms.output.contains(u"scatter_diagonal"_s), qPrintable(syms.output));
        const Run lib = runProcess(nm, {u"--defined-only"_s, build + u"/lib"_s + ns + u"_kernel.a"_s}, build, 60000, m_env);
        QVERIFY(lib.ok());
        QVERIFY(lib.output.contains(ns + u"_entry"_s));
        QVERIFY(!lib.output.contains(QRegularExpression(u"\\bkf_entry\\b"_s)));
    }
}

void TestExportBuild::intoProjectBuilds()
{
    // A host project that knows nothing of KForge: plain C++ calling cumsum::run() on device buffers.
    QString error;
    const auto in = test::inputFromTask(u"cumsum"_s, u"naive"_s, 2.0, &error);
    QVERIFY2(in, qPrintable(error));
    const QString host = m_dir.filePath(u"host"_s);
    QVERIFY(writeFile(host + u"/main.cpp"_s, R"(#include "cumsum/cumsum.h"
#include <cstdio>
int main()
{
    int32_t *x = nullptr;
    int64_t *y = nullptr;
    if (cudaMalloc(&x, sizeof(int32_t) * cumsum::numel::x) != cudaSuccess) { std::puts("no CUDA device"); return 0; }
    cudaMalloc(&y, sizeof(int64_t) * cumsum::numel::y);
    const cudaError_t err = cumsum::run(x, y);
    std::printf("%s %lld\n", cudaGetErrorString(err), static_cast<long long>(cumsum::params::R));
    return err == cudaSuccess ? 0 : 1;
}
)"));
    ExportOptions options;
    options.format = ExportFormat::Into;
    options.intoSubdir = u"third_party/cumsum"_s;
    const ExportBundle b = Exporter::generate(*in, options);
    QVERIFY2(b.ok(), qPrintable(b.error));
    QVERIFY(ExportPlan::make(host, b).write(false, &error));

    // The host's CMakeLists.txt: its own project line, then the lines the export printed, uncommented.
    QString cmake = u"cmake_minimum_required(VERSION 3.21)\n"_s;
    const QStringList lines = CMakeExporter::intoLinesFor(ExportContext(*in), options.intoSubdir,
                                                          u"project(host LANGUAGES CXX)\n"_s);
    const auto code = [](const QString &line) { return line.section(u"  #"_s, 0, 0); };
    cmake += code(lines[0]) + u"\nproject(host LANGUAGES CXX)\n"_s + code(lines[1]) + u'\n' + code(lines[2]) + u'\n';
    cmake += u"add_executable(host_app main.cpp)\n"_s + code(lines[3]).replace(u"<your_target>"_s, u"host_app"_s) + u'\n';
    QVERIFY(writeFile(host + u"/CMakeLists.txt"_s, cmake.toUtf8()));
    const QString build = m_dir.filePath(u"host-build"_s);
    QVERIFY2(configureAndBuild(host, build), qPrintable(cmake));
    QVERIFY(QFileInfo::exists(build + u"/host_app"_s));
    // The export's own test is off inside a host project.
    QVERIFY(!QFileInfo::exists(build + u"/third_party/cumsum/test_cumsum"_s));
}

QTEST_GUILESS_MAIN(TestExportBuild)
#include "tst_exportbuild.moc"
