// Exporters without a compiler: names, license headers, flag translation, templates, the files of each
// format generated from a real session, conflict handling on disk, and the Python files compiling.
#include "exportfixture.h"

#include "core/eval/evaloptions.h"
#include "core/export/cmakeexporter.h"
#include "core/export/codenames.h"
#include "core/export/exportcontext.h"
#include "core/export/exporter.h"
#include "core/export/exportplan.h"
#include "core/export/licenseheader.h"
#include "core/export/nvccflags.h"
#include "core/export/sessionexportsource.h"
#include "core/export/templaterenderer.h"
#include "core/export/torchexporter.h"
#include "core/task/task.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

QString text(const ExportBundle &b, const QString &path)
{
    const ExportFile *f = b.find(path);
    return f ? QString::fromUtf8(f->content) : QString();
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
}

} // namespace

class TestExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void identifiers_data();
    void identifiers();
    void licenseHeader();
    void nvccFlags_data();
    void nvccFlags();
    void portableFlags_data();
    void portableFlags();
    void readmeIsPortable();
    void templateUnknownKey();
    void sessionInput();
    void sessionRefusesIncorrect();
    void cmakeFiles();
    void intoFilesAndLines();
    void torchFiles();
    void benchmarksTimeLikeTheWorker();
    void torchExpressionsNameRealTasks();
    void everyBuiltinTaskGenerates();
    void conflicts();
    void folderInTheWay();
    void pythonCompiles();

private:
    QTemporaryDir m_dir;
};

void TestExport::identifiers_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");
    QTest::newRow("plain") << u"diag_matmul"_s << u"diag_matmul"_s;
    QTest::newRow("digit") << u"3d_conv"_s << u"_3d_conv"_s;
    QTest::newRow("keyword") << u"float"_s << u"float_"_s;
    QTest::newRow("python keyword") << u"lambda"_s << u"lambda_"_s;
    QTest::newRow("dash") << u"a-b c"_s << u"a_b_c"_s;
    QTest::newRow("reserved prefix") << u"__x"_s << u"t___x"_s;
    QTest::newRow("abi prefix") << u"kf_x"_s << u"t_kf_x"_s;
    QTest::newRow("generated name") << u"stream"_s << u"stream_"_s;
}

void TestExport::identifiers()
{
    QFETCH(QString, name);
    QFETCH(QString, expected);
    QCOMPARE(CodeNames::identifier(name), expected);
    QSet<QString> taken{expected};
    QCOMPARE(CodeNames::identifier(name, &taken), expected + u'_');
    QVERIFY(taken.contains(expected + u'_'));
}

void TestExport::licenseHeader()
{
    const QString license = u"Copyright 2026 Example Corp.\n\nSPDX-License-Identifier: MIT\n"_s;
    QCOMPARE(LicenseHeader::apply(u"src/k.cu"_s, "int x;\n", license),
             QByteArray("// Copyright 2026 Example Corp.\n//\n// SPDX-License-Identifier: MIT\n\nint x;\n"));
    QCOMPARE(LicenseHeader::apply(u"CMakeLists.txt"_s, "project(x)\n", license),
             QByteArray("# Copyright 2026 Example Corp.\n#\n# SPDX-License-Identifier: MIT\n\nproject(x)\n"));
    QCOMPARE(LicenseHeader::apply(u"run.py"_s, "#!/usr/bin/env python3\nprint(1)\n", u"L"_s),
             QByteArray("#!/usr/bin/env python3\n# L\n\nprint(1)\n"));
    QCOMPARE(LicenseHeader::apply(u"README.md"_s, "# T\n", license), QByteArray("# T\n"));
    QCOMPARE(LicenseHeader::apply(u"notes.txt"_s, "x\n", license), QByteArray("x\n"));
    QCOMPARE(LicenseHeader::apply(u"a.h"_s, "x\n", u"  \n"_s), QByteArray("x\n"));
}

void TestExport::nvccFlags_data()
{
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QStringList>("compile");
    QTest::addColumn<QStringList>("libraries");
    QTest::addColumn<QStringList>("ignored");
    QTest::newRow("cublas") << QStringList{u"-lcublas"_s} << QStringList{} << QStringList{u"cublas"_s} << QStringList{};
    QTest::newRow("separate -l") << QStringList{u"-l"_s, u"cublasLt"_s} << QStringList{} << QStringList{u"cublasLt"_s}
                                 << QStringList{};
    QTest::newRow("arch dropped") << QStringList{u"-arch=sm_90"_s, u"-gencode"_s, u"arch=compute_90,code=sm_90"_s, u"-O3"_s}
                                  << QStringList{u"-O3"_s} << QStringList{}
                                  << QStringList{u"-arch=sm_90"_s, u"-gencode arch=compute_90,code=sm_90"_s};
    QTest::newRow("ptxas pair") << QStringList{u"-Xptxas"_s, u"-v,-dlcm=ca"_s, u"--use_fast_math"_s}
                                << QStringList{u"-Xptxas=-dlcm=ca"_s, u"--use_fast_math"_s} << QStringList{}
                                << QStringList{};
    QTest::newRow("only -v") << QStringList{u"-Xptxas=-v"_s} << QStringList{} << QStringList{}
                             << QStringList{u"-Xptxas=-v"_s};
    QTest::newRow("fPIC and paths") << QStringList{u"-Xcompiler"_s, u"-fPIC"_s,     u"-I/home/me/inc"_s,
                                                   u"-shared"_s,    u"-DTILE=64"_s, u"-maxrregcount"_s,
                                                   u"64"_s}
                                    << QStringList{u"-DTILE=64"_s, u"-maxrregcount=64"_s} << QStringList{}
                                    << QStringList{u"-Xcompiler -fPIC"_s, u"-I/home/me/inc"_s, u"-shared"_s};
    QTest::newRow("lineinfo is not a library")
        << QStringList{u"-lineinfo"_s} << QStringList{u"-lineinfo"_s} << QStringList{} << QStringList{};
}

void TestExport::nvccFlags()
{
    QFETCH(QStringList, flags);
    QFETCH(QStringList, compile);
    QFETCH(QStringList, libraries);
    QFETCH(QStringList, ignored);
    const NvccFlags::Translated t = NvccFlags::translate(flags);
    QStringList joined;
    for (const auto &g : t.compile)
        joined << NvccFlags::joined(g);
    QCOMPARE(joined, compile);
    QCOMPARE(t.libraries, libraries);
    QCOMPARE(t.ignored, ignored);
    QCOMPARE(NvccFlags::cmakeLibrary(u"cublas"_s), u"CUDA::cublas"_s);
    QCOMPARE(NvccFlags::cmakeLibrary(u"mylib"_s), u"mylib"_s);
    QCOMPARE(NvccFlags::cmakeCudaOption({u"-Xptxas"_s, u"-v,-dlcm=ca"_s}),
             u"\"$<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v$<COMMA>-dlcm=ca>\""_s);
}

void TestExport::portableFlags_data()
{
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QStringList>("shown");
    // As a session stores it (docs/h200-diag_matmul.kforge): the toolkit, the rpath and KForge's ABI headers.
    QTest::newRow("stored command")
        << QStringList{u"/usr/local/cuda/bin/nvcc"_s,
                       u"-O3"_s,
                       u"-arch=sm_90"_s,
                       u"-Xlinker"_s,
                       u"-rpath=/usr/local/cuda/lib64"_s,
                       u"-I/work/main/core/runtime/include"_s,
                       u"-lcublas"_s,
                       u"-o"_s,
                       u"kernel.so"_s,
                       u"candidate.cu"_s}
        << QStringList{u"nvcc"_s,      u"-O3"_s,      u"-arch=sm_90"_s, u"-Xlinker"_s,  u"-rpath=$CUDA_HOME/lib64"_s,
                       u"-Iinclude"_s, u"-lcublas"_s, u"-o"_s,          u"kernel.so"_s, u"candidate.cu"_s};
    QTest::newRow("other machine paths") << QStringList{u"/opt/cuda-13/bin/nvcc"_s, u"-I"_s, u"/home/ana/cutlass/include"_s,
                                                        u"-L/opt/cuda-13/lib64"_s, u"-ccbin=/home/ana/gcc-13/bin/g++"_s}
                                         << QStringList{u"nvcc"_s, u"-I"_s, u"…/include"_s, u"-L$CUDA_HOME/lib64"_s,
                                                        u"-ccbin=…/g++"_s};
    QTest::newRow("flags alone") << QStringList{u"-lcublas"_s, u"--use_fast_math"_s}
                                 << QStringList{u"-lcublas"_s, u"--use_fast_math"_s};
}

void TestExport::portableFlags()
{
    QFETCH(QStringList, command);
    QFETCH(QStringList, shown);
    QCOMPARE(NvccFlags::portable(command), shown);
}

void TestExport::readmeIsPortable()
{
    // The README and the report travel with the kernel: nothing of the measuring machine's folders in them.
    QString error;
    auto in = test::inputFromTask(u"diag_matmul"_s, u"good"_s, 41.0, &error);
    QVERIFY2(in, qPrintable(error));
    in->provenance.nvccFlags = QStringList{u"/usr/local/cuda/bin/nvcc"_s,
                                           u"-O3"_s,
                                           u"-Xlinker"_s,
                                           u"-rpath=/usr/local/cuda/lib64"_s,
                                           u"-I/work/main/core/runtime/include"_s,
                                           u"-lcublas"_s,
                                           u"-o"_s,
                                           u"kernel.so"_s,
                                           u"candidate.cu"_s};
    const ExportBundle b = Exporter::generate(*in, ExportOptions());
    QVERIFY2(b.ok(), qPrintable(b.error));
    const QString readme = text(b, u"README.md"_s);
    QVERIFY2(readme.contains(u"| nvcc flags | `nvcc -O3 -Xlinker -rpath=$CUDA_HOME/lib64 -Iinclude -lcublas -o kernel.so "
                             "candidate.cu` |"_s),
             qPrintable(readme));
    QVERIFY2(!readme.contains(u"/work/"_s) && !readme.contains(u"/usr/local/cuda"_s), qPrintable(readme));
}

void TestExport::templateUnknownKey()
{
    QString error;
    QCOMPARE(TemplateRenderer::render(u"a {{x}} b {{ y }}"_s, {{u"x"_s, u"1"_s}, {u"y"_s, u"2"_s}}, &error), u"a 1 b 2"_s);
    QVERIFY(error.isEmpty());
    TemplateRenderer::render(u"a {{x}} {{missing}}"_s, {{u"x"_s, u"1"_s}}, &error);
    QVERIFY2(error.contains(u"missing"_s), qPrintable(error));
    // Every shipped template renders with what the generators give it (checked by generating below), and
    // the CMake "${...}" syntax in them is not mistaken for a placeholder.
    error.clear();
    QVERIFY(!TemplateRenderer::load(u"cmake/CMakeLists.txt.in"_s, &error).isEmpty());
    QVERIFY(TemplateRenderer::load(u"nope.in"_s, &error).isEmpty());
    QVERIFY(!error.isEmpty());
}

void TestExport::sessionInput()
{
    SessionStore store;
    QString error;
    QVERIFY2(test::makeSession(store, m_dir.filePath(u"input.kforge"_s), u"diag_matmul"_s,
                               {{u"naive"_s, 0.6}, {u"good"_s, 41.0}}, &error),
             qPrintable(error));
    // 41x on a task not flagged degenerate is held for review: "best" passes it over until accepted.
    const qint64 naive = test::variantByLabel(store, u"naive"_s);
    const qint64 best = test::variantByLabel(store, u"good"_s);
    QVERIFY(store.population().find(best)->suspicious);
    QCOMPARE(SessionExportSource::resolveVariant(store, u"best"_s, &error), naive);
    QVERIFY(store.variants().setAccepted(best, true));
    QCOMPARE(SessionExportSource::resolveVariant(store, u"best"_s, &error), best);
    QCOMPARE(SessionExportSource::resolveVariant(store, QString::number(best), &error), best);
    QCOMPARE(SessionExportSource::resolveVariant(store, u"#%1"_s.arg(best), &error), best);
    QCOMPARE(SessionExportSource::resolveVariant(store, u"99999"_s, &error), 0);
    QVERIFY(error.contains(u"99999"_s));
    QCOMPARE(SessionExportSource::resolveVariant(store, u"fastest"_s, &error), 0);

    const auto in = SessionExportSource::build(store, best, &error);
    QVERIFY2(in, qPrintable(error));
    QCOMPARE(QString::fromStdString(in->task.name), u"diag_matmul"_s);
    QVERIFY(in->variantSource.contains(u"rowscale_vec4"_s));
    QVERIFY(in->referenceSource.contains(u"cublasSgemm"_s));
    QVERIFY(in->taskJson.contains(u"\"diag_matmul\""_s));
    QCOMPARE(in->taskKind, TaskKind::Cuda);
    QCOMPARE(store.task().referenceFile, u"reference.cu"_s);
    QCOMPARE(in->lineage.size(), 2);
    QCOMPARE(in->lineage.front().origin, u"reference"_s);
    QCOMPARE(in->lineage.back().variantId, best);
    QCOMPARE(in->provenance.gpuName, u"NVIDIA H200"_s);
    QCOMPARE(in->provenance.arch, u"sm_90"_s);
    QCOMPARE(in->provenance.cudaArchNumber(), u"90"_s);
    QCOMPARE(in->provenance.nvccVersion, u"13.0.88"_s);
    QVERIFY(in->provenance.nvccFlags.contains(u"-lcublas"_s));
    QVERIFY(in->provenance.speedup && qFuzzyCompare(*in->provenance.speedup, 41.0));
    QVERIFY(in->provenance.speedOfLightPct && qFuzzyCompare(*in->provenance.speedOfLightPct, 80.0));
    QVERIFY(in->provenance.evaluated.isValid());
    QCOMPARE(in->provenance.sessionFile, u"input.kforge"_s);
    QCOMPARE(in->buildFlags(), QStringList{u"-lcublas"_s});
}

void TestExport::sessionRefusesIncorrect()
{
    SessionStore store;
    QString error;
    QVERIFY2(test::makeSession(store, m_dir.filePath(u"incorrect.kforge"_s), u"diag_matmul"_s, {{u"good"_s, 41.0}}, &error),
             qPrintable(error));
    const qint64 naive = test::variantByLabel(store, u"naive"_s);
    const qint64 good = test::variantByLabel(store, u"good"_s);
    QCOMPARE(SessionExportSource::resolveVariant(store, u"best"_s, &error), 0);
    QVERIFY2(error.contains(u"#%1 (41.0x)"_s.arg(good)), qPrintable(error));
    // Named explicitly it exports, and says it was not reviewed.
    const auto unreviewed = SessionExportSource::build(store, good, &error);
    QVERIFY2(unreviewed, qPrintable(error));
    QVERIFY(!unreviewed->provenance.suspiciousReason.isEmpty());
    QVERIFY(QString::fromUtf8(Exporter::generate(*unreviewed, {}).find(u"README.md"_s)->content).contains(u"| Not reviewed |"_s));
    QVERIFY(!SessionExportSource::build(store, naive, &error));
    QVERIFY2(error.contains(u"not been evaluated"_s), qPrintable(error));
    QJsonObject wrong = test::correctResult(3.0, 1.0);
    wrong[u"verdict"_s] = u"incorrect"_s;
    QVERIFY(store.evaluations().add(Evaluation::fromResult(naive, wrong, test::h200Device())));
    QVERIFY(!SessionExportSource::build(store, naive, &error));
    QVERIFY2(error.contains(u"incorrect"_s), qPrintable(error));
}

void TestExport::cmakeFiles()
{
    QString error;
    auto in = test::inputFromTask(u"diag_matmul"_s, u"good"_s, 41.0, &error);
    QVERIFY2(in, qPrintable(error));
    ExportOptions options;
    options.licenseText = u"Copyright 2026 Example Corp.\nSPDX-License-Identifier: Apache-2.0"_s;
    const ExportBundle b = Exporter::generate(*in, options);
    QVERIFY2(b.ok(), qPrintable(b.error));
    // Kept for a human to look at.
    ExportPlan::make(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/export-cmake-diag_matmul"), b).write(true, nullptr);
    QStringList paths;
    for (const auto &f : b.files)
        paths << f.path;
    const QStringList expected{u"CMakeLists.txt"_s,
                               u"include/diag_matmul/diag_matmul.h"_s,
                               u"include/kforge/kernel.h"_s,
                               u"src/diag_matmul_kernel.cu"_s,
                               u"src/diag_matmul.cpp"_s,
                               u"reference/reference.cu"_s,
                               u"test/diag_matmul_harness.h"_s,
                               u"test/test_diag_matmul.cpp"_s,
                               u"bench/bench_diag_matmul.cpp"_s,
                               u"task.json"_s,
                               u"README.md"_s};
    QCOMPARE(paths, expected);

    const QString header = text(b, u"include/diag_matmul/diag_matmul.h"_s);
    QVERIFY2(header.contains(u"cudaError_t run(const float *A, const float *B, float *C, cudaStream_t stream = 0);"_s),
             qPrintable(header));
    QVERIFY(header.contains(u"inline constexpr int64_t N = 4096;"_s));
    QVERIFY(header.contains(u"inline constexpr int64_t B[2] = {4096, 4096};"_s));
    // No KForge type or header in the public interface.
    QVERIFY(!header.contains(u"kf_"_s));
    QVERIFY(!header.contains(u"kforge/kernel.h"_s));

    const QString cmake = text(b, u"CMakeLists.txt"_s);
    QVERIFY(cmake.contains(u"project(diag_matmul_kernel LANGUAGES CXX CUDA)"_s));
    QVERIFY(cmake.contains(u"\"90-real;90-virtual\""_s));
    QVERIFY(cmake.contains(u"${export_cudart} CUDA::cublas"_s));
    QVERIFY(cmake.contains(u"kf_entry=diag_matmul_entry"_s));
    QVERIFY(cmake.contains(u"kf_entry=diag_matmul_reference_entry"_s));
    QVERIFY(!cmake.contains(u"{{"_s));

    // The sources are the session's, under the license header; the ABI header and task.json are verbatim.
    QVERIFY(text(b, u"src/diag_matmul_kernel.cu"_s)
                .startsWith(u"// Copyright 2026 Example Corp.\n// SPDX-License-Identifier: Apache-2.0\n\n"_s));
    QVERIFY(text(b, u"src/diag_matmul_kernel.cu"_s).endsWith(in->variantSource));
    QVERIFY(text(b, u"CMakeLists.txt"_s).startsWith(u"# Copyright 2026 Example Corp."_s));
    QVERIFY(text(b, u"test/test_diag_matmul.cpp"_s).startsWith(u"// Copyright"_s));
    QCOMPARE(b.find(u"include/kforge/kernel.h"_s)->content,
             readFile(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/core/runtime/include/kforge/kernel.h")));
    QCOMPARE(text(b, u"task.json"_s), in->taskJson);

    const QString harness = text(b, u"test/diag_matmul_harness.h"_s);
    QVERIFY(harness.contains(u"{\"A\", KF_F32, 1, {4096}, Dist::Normal, 0, 1, 0, 0}"_s));
    QVERIFY(harness.contains(u"{\"C\", KF_F32, 2, {4096, 4096}, Dist::None, 0, 0, 1.0e-05, 1.0e-05}"_s)
            || harness.contains(u"{\"C\", KF_F32, 2, {4096, 4096}, Dist::None, 0, 0, 1e-05, 1e-05}"_s));
    QVERIFY(harness.contains(u"diag_matmul::run(static_cast<const float *>(in[0]), static_cast<const float *>(in[1]), "
                             "static_cast<float *>(out[0]), stream)"_s));
    const QString bench = text(b, u"bench/bench_diag_matmul.cpp"_s);
    QVERIFY(bench.contains(u"kKForgeSpeedup = 41;"_s));

    const QString readme = text(b, u"README.md"_s);
    for (const QString &needle :
         {u"NVIDIA H200"_s, u"compute capability 9.0"_s, u"580.65.06"_s, u"13.0.88"_s, u"-arch=sm_90"_s, u"41.0x"_s,
          u"80.0% of the roofline"_s, u"2026-11-30T10:05:00Z"_s, u"2026-11-30T10:00:00Z"_s, u"KForge 0.1.0-test"_s,
          u"#7 `good`"_s, u"1. #1"_s, u"cmake -S . -B build"_s, u"ABI\nversion 1"_s})
        QVERIFY2(readme.contains(needle), qPrintable(u"README lacks "_s + needle + u"\n"_s + readme));
    QVERIFY(!readme.contains(u"{{"_s));
}

void TestExport::intoFilesAndLines()
{
    QString error;
    auto in = test::inputFromTask(u"diag_matmul"_s, u"good"_s, 41.0, &error);
    QVERIFY2(in, qPrintable(error));
    ExportOptions options;
    options.format = ExportFormat::Into;
    options.intoSubdir = u"../outside"_s;
    QVERIFY(!Exporter::generate(*in, options).ok());
    options.intoSubdir = u"/abs"_s;
    QVERIFY(!Exporter::generate(*in, options).ok());
    options.intoSubdir = u"third_party//diag/"_s;
    const ExportBundle b = Exporter::generate(*in, options);
    QVERIFY2(b.ok(), qPrintable(b.error));
    for (const auto &f : b.files)
        QVERIFY2(f.path.startsWith(u"third_party/diag/"_s), qPrintable(f.path));
    QVERIFY(b.find(u"third_party/diag/CMakeLists.txt"_s));
    QVERIFY(b.cmakeLines.contains(u"add_subdirectory(third_party/diag)"_s));
    QVERIFY(b.cmakeLines.contains(u"target_link_libraries(<your_target> PRIVATE diag_matmul::kernel)"_s));
    QVERIFY(text(b, u"third_party/diag/README.md"_s).contains(u"add_subdirectory(third_party/diag)"_s));

    const ExportContext ctx(*in);
    const QStringList fresh = CMakeExporter::intoLinesFor(ctx, u"third_party/diag"_s, u"project(app LANGUAGES CXX)\n"_s);
    QVERIFY(!fresh[1].startsWith(u'#'));
    QVERIFY(!fresh[2].startsWith(u'#'));
    const QStringList done = CMakeExporter::intoLinesFor(
        ctx, u"third_party/diag"_s,
        u"set(CMAKE_CUDA_ARCHITECTURES 90)\nproject(app LANGUAGES CXX CUDA)\nadd_subdirectory(third_party/diag)\n"_s);
    QVERIFY(done[0].startsWith(u'#') && done[1].startsWith(u'#') && done[2].startsWith(u'#'));
    QVERIFY(!done[3].startsWith(u'#'));
    // A commented-out line does not count.
    const QStringList commented = CMakeExporter::intoLinesFor(ctx, u"third_party/diag"_s,
                                                              u"project(app LANGUAGES CXX) # CUDA later\n"_s);
    QVERIFY(!commented[1].startsWith(u'#'));
}

void TestExport::torchFiles()
{
    QString error;
    auto in = test::inputFromTask(u"diag_matmul"_s, u"good"_s, 41.0, &error);
    QVERIFY2(in, qPrintable(error));
    ExportOptions options;
    options.format = ExportFormat::Torch;
    options.licenseText = u"SPDX-License-Identifier: MIT"_s;
    const ExportBundle b = Exporter::generate(*in, options);
    QVERIFY2(b.ok(), qPrintable(b.error));
    for (const QString &path : {u"setup.py"_s, u"diag_matmul_binding.cpp"_s, u"diag_matmul_kernel.cu"_s,
                                u"include/kforge/kernel.h"_s, u"test_diag_matmul.py"_s, u"README.md"_s, u"task.json"_s})
        QVERIFY2(b.find(path), qPrintable(path));
    // diag_matmul has a PyTorch expression, so no reference module.
    QVERIFY(!b.find(u"reference.cu"_s));
    const QString setup = text(b, u"setup.py"_s);
    QVERIFY(setup.startsWith(u"# SPDX-License-Identifier: MIT\n"_s));
    QVERIFY(setup.contains(u"CUDAExtension"_s));
    QVERIFY2(setup.contains(u"libraries=[\"cublas\"],"_s), qPrintable(setup));
    QVERIFY(setup.contains(u"\"9.0+PTX\""_s));
    QVERIFY(!setup.contains(u"diag_matmul_reference_ext"_s));
    QVERIFY(!b.find(u"diag_matmul_reference_binding.cpp"_s));
    const QString test = text(b, u"test_diag_matmul.py"_s);
    QVERIFY(test.contains(u"TORCH_EXPR = \"torch.diag(A) @ B\""_s));
    QVERIFY(test.contains(u"(\"A\", torch.float32, (4096,), \"normal\", 0, 1),"_s));
    const QString binding = text(b, u"diag_matmul_binding.cpp"_s);
    QVERIFY(binding.contains(u"torch::Tensor forward(torch::Tensor A, torch::Tensor B)"_s));
    QVERIFY(binding.contains(u"check(A, \"A\", torch::kFloat32, {4096});"_s));

    // A task with no PyTorch expression is compared against its reference, built as a second module.
    auto custom = *in;
    custom.task.name = "diag_matmul_custom";
    const ExportBundle r = Exporter::generate(custom, options);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.find(u"reference.cu"_s));
    QVERIFY(text(r, u"setup.py"_s)
                .contains(
                    u"extension(\"diag_matmul_custom_reference_ext\", \"diag_matmul_custom_reference_binding.cpp\", \"reference.cu\""_s));
    QVERIFY(text(r, u"diag_matmul_custom_reference_binding.cpp"_s).contains(u"diag_matmul_custom_reference_entry(inputs"_s));
    QVERIFY(text(r, u"diag_matmul_custom_binding.cpp"_s).contains(u"diag_matmul_custom_entry(inputs"_s));
    QVERIFY(text(r, u"test_diag_matmul_custom.py"_s).contains(u"TORCH_EXPR = None"_s));
    QVERIFY(text(r, u"test_diag_matmul_custom.py"_s).contains(u"import diag_matmul_custom_reference_ext"_s));
}

// The exported benchmarks measure under the worker's conditions (gpucontext.cpp, evaluator.cpp): freed
// stream-ordered memory kept in the device's pool, spin-wait, the evaluation's warm-up and run counts, the
// L2 flushed before each run, a device-wide synchronize inside the timed window, alternating order. On
// linear_rowsum, whose reference allocates 64 MiB with cudaMallocAsync per call, that decides the speedup.
void TestExport::benchmarksTimeLikeTheWorker()
{
    QString error;
    const auto in = test::inputFromTask(u"linear_rowsum"_s, u"good"_s, 30.0, &error);
    QVERIFY2(in, qPrintable(error));
    const EvalOptions defaults;
    const auto inOrder = [](const QString &text, const QStringList &needles) -> QString {
        qsizetype at = 0;
        for (const QString &n : needles) {
            const qsizetype i = text.indexOf(n, at);
            if (i < 0)
                return u"missing or out of order: "_s + n;
            at = i + n.size();
        }
        return QString();
    };

    const ExportBundle cmake = Exporter::generate(*in, ExportOptions{});
    QVERIFY2(cmake.ok(), qPrintable(cmake.error));
    const QString harness = text(cmake, u"test/linear_rowsum_harness.h"_s);
    QCOMPARE(inOrder(harness, {u"inline void setUpDeviceLikeKForge(bool keepPool = true)"_s,
                               u"cudaSetDeviceFlags(cudaDeviceScheduleSpin)"_s,
                               u"cudaDeviceGetDefaultMemPool(&pool, device)"_s, u"keepPool ? UINT64_MAX : 0"_s,
                               u"cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold)"_s}),
             QString());
    const QString bench = text(cmake, u"bench/bench_linear_rowsum.cpp"_s);
    QVERIFY(!bench.contains(u"{{"_s));
    QVERIFY2(
        bench.contains(
            u"int minRuns = %1, warmup = %2, maxRuns = %3;"_s.arg(defaults.minRuns).arg(defaults.warmup).arg(defaults.maxRuns)),
        qPrintable(bench));
    QVERIFY(bench.contains(
        u"double minTimeMs = %1, warmupMs = %2;"_s.arg(TimingDefaults::fixedMinTimeMs).arg(defaults.warmupMs)));
    // Set up before anything creates the context; then one timed run: flush, start, call, device sync, stop.
    QCOMPARE(inOrder(bench, {u"setUpDeviceLikeKForge(keepPool);"_s, u"cudaGetDeviceProperties"_s, u"Buffers bufs;"_s,
                             u"cudaMemsetAsync(flush, 0, flushBytes, stream)"_s, u"cudaEventRecord(start, stream)"_s,
                             u"fn(bufs.in, out, stream)"_s, u"cudaDeviceSynchronize()"_s,
                             u"cudaEventRecord(stop, stream)"_s, u"i < warmup || sinceMs(warmupStart) < warmupMs"_s,
                             u"if (i % 2 == 0)"_s, u"refMs.push_back(timeOnce(runReference"_s,
                             u"kernelMs.push_back(timeOnce(runKernel"_s, u"} else {"_s,
                             u"kernelMs.push_back(timeOnce(runKernel"_s, u"refMs.push_back(timeOnce(runReference"_s,
                             u"runs >= maxRuns || (runs >= minRuns && sinceMs(begin) >= minTimeMs)"_s}),
             QString());
    QVERIFY(bench.contains(u"--release-pool"_s));

    ExportOptions torchOptions;
    torchOptions.format = ExportFormat::Torch;
    const ExportBundle torch = Exporter::generate(*in, torchOptions);
    QVERIFY2(torch.ok(), qPrintable(torch.error));
    // No PyTorch expression for this task: the reference runs as its own extension, allocating per call.
    QVERIFY(torch.find(u"linear_rowsum_reference_binding.cpp"_s));
    for (const QString &binding : {u"linear_rowsum_binding.cpp"_s, u"linear_rowsum_reference_binding.cpp"_s})
        QCOMPARE(inOrder(text(torch, binding),
                         {u"void keep_stream_ordered_pool()"_s, u"uint64_t threshold = UINT64_MAX;"_s,
                          u"cudaMemPoolAttrReleaseThreshold"_s, u"m.def(\"keep_stream_ordered_pool\""_s}),
                 QString());
    const QString test = text(torch, u"test_linear_rowsum.py"_s);
    QVERIFY(!test.contains(u"{{"_s));
    QCOMPARE(inOrder(test, {u"min_runs=%1, min_time_ms=%2, max_runs=%3"_s.arg(defaults.minRuns)
                                .arg(TimingDefaults::fixedMinTimeMs)
                                .arg(defaults.maxRuns),
                            u"warmup=%1, warmup_ms=%2"_s.arg(defaults.warmup).arg(defaults.warmupMs),
                            u"linear_rowsum_ext.keep_stream_ordered_pool()"_s, u"flush.zero_()"_s, u"start.record()"_s,
                            u"fn(*inputs)"_s, u"torch.cuda.synchronize()"_s, u"stop.record()"_s, u"while pairs < warmup or"_s,
                            u"if len(kernel_ms) % 2 == 0:"_s, u"baseline_ms.append(once(baseline))"_s,
                            u"kernel_ms.append(once(kernel))"_s, u"else:"_s, u"kernel_ms.append(once(kernel))"_s,
                            u"baseline_ms.append(once(baseline))"_s, u"time_pair(linear_rowsum_ext.forward"_s}),
             QString());
}

void TestExport::torchExpressionsNameRealTasks()
{
    QFile f(u":/kforge/export/torch_exprs.json"_s);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject table = QJsonDocument::fromJson(f.readAll()).object();
    QVERIFY(table.size() > 10);
    static const QSet<QString> known{u"torch"_s,     u"F"_s,           u"math"_s,   u"dim"_s, u"dtype"_s, u"keepdim"_s,
                                     u"minlength"_s, u"approximate"_s, u"device"_s, u"eps"_s, u"int"_s,   u"float"_s,
                                     u"tanh"_s,      u"True"_s,        u"False"_s,  u"None"_s};
    for (auto it = table.begin(); it != table.end(); ++it) {
        if (it.key().startsWith(u'_'))
            continue;
        const TaskLoadResult loaded = Task::load(test::builtinTaskFolder(it.key()));
        QVERIFY2(loaded.ok(), qPrintable(it.key() + u": "_s + loaded.error.message()));
        QSet<QString> names = known;
        for (const auto &t : loaded.task->spec().inputs)
            names << QString::fromStdString(t.name);
        for (const auto &p : loaded.task->spec().params)
            names << QString::fromStdString(p.first);
        // Every bare identifier (not an attribute, not in a string) is an input, a param or a known name.
        QString expr = it.value().toString();
        expr.remove(QRegularExpression(u"'[^']*'"_s));
        const QRegularExpression ident(u"(?<![.\\w])([A-Za-z_]\\w*)"_s);
        for (auto m = ident.globalMatch(expr); m.hasNext();) {
            const QString name = m.next().captured(1);
            QVERIFY2(names.contains(name), qPrintable(it.key() + u": unknown name "_s + name));
        }
    }
}

void TestExport::everyBuiltinTaskGenerates()
{
    // Every format for every built-in task's first variant: no template placeholder left, every file there.
    for (const QString &folder : Task::builtinTaskFolders()) {
        const TaskLoadResult loaded = Task::load(folder);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error.message()));
        const QString name = loaded.task->name();
        QString error;
        const auto in = test::inputFromTask(name, QString::fromStdString(loaded.task->spec().variants.front().label),
                                            2.0, &error);
        QVERIFY2(in, qPrintable(error));
        for (const auto format : {ExportFormat::CMake, ExportFormat::Torch, ExportFormat::Into}) {
            ExportOptions options;
            options.format = format;
            options.intoSubdir = u"k"_s;
            const ExportBundle b = Exporter::generate(*in, options);
            QVERIFY2(b.ok(), qPrintable(name + u": "_s + b.error));
            for (const auto &f : b.files) {
                if (f.path.endsWith(u".cu"_s) || f.path.endsWith(u"kernel.h"_s) || f.path.endsWith(u".json"_s))
                    continue; // sources of the task, not generated
                QVERIFY2(!f.content.contains("{{"), qPrintable(name + u": placeholder left in "_s + f.path));
            }
        }
    }
}

void TestExport::conflicts()
{
    QString error;
    SessionStore store;
    QVERIFY2(test::makeSession(store, m_dir.filePath(u"conflicts.kforge"_s), u"diag_matmul"_s,
                               {{u"naive"_s, 0.6}, {u"good"_s, 41.0}}, &error),
             qPrintable(error));
    const auto good = SessionExportSource::build(store, test::variantByLabel(store, u"good"_s), &error);
    const auto naive = SessionExportSource::build(store, test::variantByLabel(store, u"naive"_s), &error);
    QVERIFY(good && naive);
    const QString out = m_dir.filePath(u"conflicts-out"_s);
    const ExportBundle b = Exporter::generate(*good, {});

    // First export: everything new.
    ExportPlan plan = ExportPlan::make(out, b);
    QCOMPARE(plan.count(ExportPlan::State::New), b.files.size());
    QVERIFY(plan.write(false, &error));
    QCOMPARE(readFile(out + u"/src/diag_matmul_kernel.cu"_s), b.find(u"src/diag_matmul_kernel.cu"_s)->content);

    // The same export again: identical, nothing to refuse.
    plan = ExportPlan::make(out, b);
    QCOMPARE(plan.count(ExportPlan::State::Identical), b.files.size());
    QVERIFY(plan.write(false, &error));

    // A user's edit is a conflict; without force nothing at all is written.
    QVERIFY(writeFile(out + u"/src/diag_matmul_kernel.cu"_s, "// my edit\n"));
    QFile::remove(out + u"/README.md"_s);
    plan = ExportPlan::make(out, b);
    QCOMPARE(plan.count(ExportPlan::State::Conflict), 1);
    QCOMPARE(plan.conflicts().front().path, u"src/diag_matmul_kernel.cu"_s);
    QCOMPARE(plan.count(ExportPlan::State::New), 1);
    QVERIFY(!plan.write(false, &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(readFile(out + u"/src/diag_matmul_kernel.cu"_s), QByteArray("// my edit\n"));
    QVERIFY(!QFile::exists(out + u"/README.md"_s));
    QVERIFY(plan.write(true, &error));
    QCOMPARE(readFile(out + u"/src/diag_matmul_kernel.cu"_s), b.find(u"src/diag_matmul_kernel.cu"_s)->content);

    // Another variant into the same folder: its kernel, README and benchmark differ; the rest is the same.
    const ExportBundle other = Exporter::generate(*naive, {});
    plan = ExportPlan::make(out, other);
    QStringList conflicting;
    for (const auto &c : plan.conflicts())
        conflicting << c.path;
    conflicting.sort();
    QCOMPARE(conflicting, (QStringList{u"CMakeLists.txt"_s, u"README.md"_s, u"bench/bench_diag_matmul.cpp"_s,
                                       u"include/diag_matmul/diag_matmul.h"_s, u"src/diag_matmul_kernel.cu"_s}));
    QVERIFY(plan.count(ExportPlan::State::Identical) > 0);
}

void TestExport::folderInTheWay()
{
    QString error;
    const auto in = test::inputFromTask(u"diag_matmul"_s, u"good"_s, 41.0, &error);
    QVERIFY(in);
    const QString out = m_dir.filePath(u"in-the-way"_s);
    QVERIFY(QDir().mkpath(out + u"/README.md"_s));
    QVERIFY(writeFile(out + u"/src"_s, "a file where a folder goes\n"));
    const ExportPlan plan = ExportPlan::make(out, Exporter::generate(*in, {}));
    QStringList conflicting;
    for (const auto &c : plan.conflicts())
        conflicting << c.path;
    QVERIFY(conflicting.contains(u"README.md"_s));
    QVERIFY(conflicting.contains(u"src/diag_matmul_kernel.cu"_s));
    QVERIFY(conflicting.contains(u"src/diag_matmul.cpp"_s));
    QVERIFY(!plan.write(true, &error));
    QVERIFY(!error.isEmpty());
}

void TestExport::pythonCompiles()
{
    const QString python = QStandardPaths::findExecutable(u"python3"_s);
    if (python.isEmpty())
        QSKIP("no python3 on PATH");
    QString error;
    for (const QString &task : {u"diag_matmul"_s, u"conv3d_groupnorm_min_clamp"_s, u"cumsum"_s}) {
        auto in = test::inputFromTask(task, u"naive"_s, 2.0, &error);
        if (!in)
            in = test::inputFromTask(task, u"fused"_s, 2.0, &error);
        QVERIFY2(in, qPrintable(error));
        for (const bool custom : {false, true}) {
            if (custom)
                in->task.name += "_custom"; // no PyTorch expression: the reference-module variant of the files
            ExportOptions options;
            options.format = ExportFormat::Torch;
            options.licenseText = u"Copyright 2026 Example Corp."_s;
            const ExportBundle b = Exporter::generate(*in, options);
            QVERIFY2(b.ok(), qPrintable(b.error));
            const QString out = m_dir.filePath(u"torch-"_s + QString::fromStdString(in->task.name));
            QVERIFY(ExportPlan::make(out, b).write(false, &error));
            QStringList pyFiles;
            for (const auto &f : b.files)
                if (f.path.endsWith(u".py"_s))
                    pyFiles << out + u'/' + f.path;
            QCOMPARE(pyFiles.size(), 2);
            for (const QString &py : pyFiles) {
                QProcess p;
                p.start(python, {u"-m"_s, u"py_compile"_s, py});
                QVERIFY(p.waitForFinished(60000));
                QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                         qPrintable(py + u": "_s + QString::fromUtf8(p.readAllStandardError())));
            }
        }
    }
}

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
