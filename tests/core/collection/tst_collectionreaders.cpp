// The three layouts of a collection read from the fixtures of tests/fixtures/collections: every pair as a line
// (id, problem key, kind, claim, level/number/sample, candidate name) and every record that could not become a pair
// with its message, written out as text dumps; pairing by name and by number, levels, ambiguity; a released JSON's
// fields renamed with --map; a run folder's claims from eval_results.json and the baseline timing.
#include "core/collection/collectionreader.h"
#include "core/collection/kernelbenchrunreader.h"
#include "core/collection/problemindex.h"
#include "core/collection/releasedjsonreader.h"
#include "core/collection/torchextension.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

const QString kRoot = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/collections");

// The expected tables: a pair per line (id | problem key | kind | claimed | level, number, sample | candidate file
// | notes), then "!" for each record that could not become a pair and "~" for each note.
const char *kFolderDump = R"(level1/1_Square_matrix_multiplication_.py | level1_1_square_matrix_multiplication_ | ModelNew | - | L1 P1 S-1 | 1_Square_matrix_multiplication_.py
level1/2_ReLU.py | level1_2_relu | ModelNew | - | L1 P2 S-1 | 2_ReLU.py
level1/4_layernorm_half.py | level1_4_layernorm | ModelNew | - | L1 P4 S-1 | 4_layernorm_half.py
level1/5_sum_fixed_shape.py | level1_5_sum_reduction_over_a_dimension | ModelNew | - | L1 P5 S-1 | 5_sum_fixed_shape.py
level1/6_gelu_side_stream.py | level1_6_gelu_ | ModelNew | - | L1 P6 S-1 | 6_gelu_side_stream.py
level1/7_matvec_warp.cu | level1_7_matrix_vector_multiplication_ | .cu | - | L1 P7 S-1 | 7_matvec_warp.cu
level1/8_sigmoid_broken.cu | level1_8_sigmoid | .cu | - | L1 P8 S-1 | 8_sigmoid_broken.cu
level1/9_tanh_wrong.py | level1_9_tanh | ModelNew | - | L1 P9 S-1 | 9_tanh_wrong.py
level1/10_HardTanh.py | level1_10_hardtanh | ModelNew | - | L1 P10 S-1 | 10_HardTanh.py
level1/11_max_cached.py | level1_11_max_reduction_over_a_dimension | ModelNew | - | L1 P11 S-1 | 11_max_cached.py
level1/12_mean.py | level1_12_mean_reduction_over_a_dimension | ModelNew | - | L1 P12 S-1 | 12_mean.py
level1/13_l2norm_load_inline.py | level1_13_l2norm_ | ModelNew | - | L1 P13 S-1 | 13_l2norm_load_inline.py
level1/14_conv_standard_2D.py | level1_14_conv_standard_2d | ModelNew | - | L1 P14 S-1 | 14_conv_standard_2D.py
level1_3_softmax_explicit.py | level1_3_softmax | ModelNew | - | L1 P3 S-1 | level1_3_softmax_explicit.py
level2/1_gemm_bias_relu_fused.py | level2_1_gemm_biasadd_relu | ModelNew | - | L2 P1 S-1 | 1_gemm_bias_relu_fused.py
level2/2_Conv2d_ReLU_BiasAdd.py | level2_2_conv2d_relu_biasadd | ModelNew | - | L2 P2 S-1 | 2_Conv2d_ReLU_BiasAdd.py
level2/3_matmul_min_clamp_zeros.py | level2_3_matmul_min_clamp | ModelNew | - | L2 P3 S-1 | 3_matmul_min_clamp_zeros.py
level2/4_gemm_sigmoid_scaling.cu | level2_4_gemm_sigmoid_scaling | .cu | - | L2 P4 S-1 | 4_gemm_sigmoid_scaling.cu
level2/5_matmul_scale_residual.py | level2_5_matmul_scale_residualadd | ModelNew | - | L2 P5 S-1 | 5_matmul_scale_residual.py
level2/6_gemm_gelu_softmax.py | level2_6_gemm_gelu_softmax | ModelNew | - | L2 P6 S-1 | 6_gemm_gelu_softmax.py
! candidates/5_which_level.py: ambiguous: problem 5 is in several levels (level1/5_Sum_reduction_over_a_dimension.py, level2/5_Matmul_Scale_ResidualAdd.py); name the level (a level1/ folder or a level1_ prefix)
! candidates/42_no_such_problem.py: pairs with no problem: no problem is numbered 42
~ candidates/README.txt: not a candidate (a .py module or a .cu kernel): left out
! candidates/level1/12_mean_notes.py: defines no class ModelNew: a candidate module defines ModelNew with the problem's constructor and forward)";
const char *kJsonDump = R"(level1/2 | level1_2 | ModelNew | 1.35 | L1 P2 S-1 | level1_2.py
level1/3 | level1_3 | ModelNew | 1.4 | L1 P3 S-1 | level1_3.py
level2/3 | level2_3 | ModelNew | 40.2 | L2 P3 S-1 | level2_3.py
! kernels.json level1[2] (task_id 9): the candidate's code (custom_code) is empty
! kernels.json level1[3] (task_id 6): the reference's code defines no class Model (KernelBench's format: class Model, get_inputs(), get_init_inputs())
! kernels.json level2[1]: not a record (an object with task_id, ref_code, custom_code and score))";
const char *kRunDump = R"(level_1_problem_1_sample_0_kernel | level1_1_square_matrix_multiplication_ | ModelNew | 1.025 | L1 P1 S0 | level_1_problem_1_sample_0_kernel.py
level_1_problem_2_sample_0_kernel | level1_2_relu | ModelNew | 1.105 | L1 P2 S0 | level_1_problem_2_sample_0_kernel.py
level_1_problem_2_sample_1_kernel | level1_2_relu | ModelNew | - | L1 P2 S1 | level_1_problem_2_sample_1_kernel.py | KernelBench found it not correct: Output mismatch
level_1_problem_5_sample_0_kernel | level1_5_sum_reduction_over_a_dimension | ModelNew | 2.5 | L1 P5 S0 | level_1_problem_5_sample_0_kernel.py
! level_1_problem_3_sample_0_kernel.py: empty: the generation wrote no code for this sample
! level_1_problem_99_sample_0_kernel.py: pairs with no problem: @PROBLEMS@ has no problem 99 in level 1)";
QString dump(const Collection &c)
{
    QStringList lines;
    for (const CollectionPair &p : c.pairs)
        lines << u"%1 | %2 | %3 | %4 | L%5 P%6 S%7 | %8%9"_s
                     .arg(p.id, p.problemKey, kindName(p.kind),
                          p.claimedSpeedup ? QString::number(*p.claimedSpeedup, 'g', 4) : u"-"_s)
                     .arg(p.level)
                     .arg(p.problemNumber)
                     .arg(p.sample)
                     .arg(p.candidateName, p.notes.isEmpty() ? QString() : u" | "_s + p.notes.join(u"; "_s));
    for (const CollectionIssue &i : c.issues)
        lines << u"%1 %2: %3"_s.arg(i.blocking ? u"!"_s : u"~"_s, i.where, i.message);
    return lines.join(u'\n');
}

Collection readOrFail(const QString &path, const CollectionOptions &o)
{
    const CollectionReadResult r = CollectionReader::read(path, o);
    if (!r.collection)
        qWarning("%s", qPrintable(r.error));
    return r.collection.value_or(Collection());
}

QString writeJson(QTemporaryDir &dir, const QString &name, const QJsonDocument &doc)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(doc.toJson());
    return path;
}

const char *kProblem = "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n    def forward(self, x):\n"
                       "        return x * 2\n\nN = 64\n\ndef get_inputs():\n    return [torch.randn(N)]\n\n"
                       "def get_init_inputs():\n    return []\n";
const char *kCandidate = "import torch.nn as nn\n\nclass ModelNew(nn.Module):\n    def forward(self, x):\n"
                         "        return x + x\n";

} // namespace

class CollectionReadersTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void folderPairsByNameAndNumber()
    {
        CollectionOptions o;
        o.problems = kRoot + u"/kernelbench"_s;
        const Collection c = readOrFail(kRoot + u"/folder/candidates"_s, o);
        QCOMPARE(c.format, CollectionFormat::ProblemFolder);
        QCOMPARE(dump(c), QString::fromUtf8(kFolderDump));
        QCOMPARE(c.blockingIssues(), 3);
    }

    void folderLayoutWithSubfolders()
    {
        // DIR/problems and DIR/candidates without options.
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(u"problems/level1"_s) && QDir(dir.path()).mkpath(u"candidates"_s));
        for (const auto &[path, text] : {std::pair{u"problems/level1/3_Double.py"_s, kProblem},
                                         std::pair{u"candidates/level_1_problem_3_try2.py"_s, kCandidate},
                                         std::pair{u"candidates/3_double.py"_s, kCandidate},
                                         std::pair{u"candidates/double_fast.py"_s, kCandidate}}) {
            QFile f(dir.filePath(path));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        }
        const Collection c = readOrFail(dir.path(), {});
        QCOMPARE(dump(c), u"3_double.py | level1_3_double | ModelNew | - | L1 P3 S-1 | 3_double.py\n"
                          "level_1_problem_3_try2.py | level1_3_double | ModelNew | - | L1 P3 S-1 | "
                          "level_1_problem_3_try2.py\n"
                          "! candidates/double_fast.py: pairs with no problem: no problem is named double_fast and the "
                          "name holds no problem number (19_..., level1_19_..., problem_19)"_s);
        QCOMPARE(c.pairs.first().problemSource, QString::fromUtf8(kProblem));
    }

    void releasedJson()
    {
        const Collection c = readOrFail(kRoot + u"/released/kernels.json"_s, {});
        QCOMPARE(c.format, CollectionFormat::ReleasedJson);
        QCOMPARE(dump(c), QString::fromUtf8(kJsonDump));
    }

    void releasedJsonMapped()
    {
        CollectionOptions o;
        o.fieldMap = {{u"task_id"_s, u"id"_s},
                      {u"ref_code"_s, u"reference"_s},
                      {u"custom_code"_s, u"kernel"_s},
                      {u"score"_s, u"speedup_claimed"_s}};
        const Collection mapped = readOrFail(kRoot + u"/released/mapped.json"_s, o);
        QCOMPARE(dump(mapped), u"relu | task_relu | ModelNew | 1.1 | L0 P-1 S-1 | task_relu.py\n"
                               "sum | task_sum | ModelNew | 2.6 | L0 P-1 S-1 | task_sum.py"_s);
        // Without the map every record lacks the default fields.
        const Collection unmapped = readOrFail(kRoot + u"/released/mapped.json"_s, {});
        QVERIFY(unmapped.pairs.isEmpty());
        QCOMPARE(unmapped.issues.first().message,
                 u"no reference code: the record has no field ref_code (name another with --map ref_code=FIELD)"_s);
    }

    // Sakana-style candidates: a .cu torch extension (PYBIND11_MODULE binding forward), no ModelNew. A functional
    // problem and a stateless one are wrapped into a ModelNew that builds the .cu with load_inline; a problem whose
    // Model keeps a layer is listed with why it cannot be judged.
    void torchExtensions()
    {
        CollectionOptions o;
        o.fieldMap = {{u"task_id"_s, u"Task_ID"_s},
                      {u"ref_code"_s, u"PyTorch_Code_Functional"_s},
                      {u"custom_code"_s, u"CUDA_Code"_s},
                      {u"score"_s, u"CUDA_Speedup_Native"_s},
                      {u"level"_s, u"Level_ID"_s}};
        const Collection c = readOrFail(kRoot + u"/released/sakana.json"_s, o);
        QCOMPARE(dump(c),
                 u"1 | task_1 | ModelNew | 1.3 | L2 P1 S-1 | task_1.py | a torch extension (.cu with PYBIND11_MODULE): "
                 "judged as a ModelNew that builds it with load_inline and calls its forward\n"
                 "19 | task_19 | ModelNew | 1.05 | L1 P19 S-1 | task_19.py | a torch extension (.cu with PYBIND11_MODULE): "
                 "judged as a ModelNew that builds it with load_inline and calls its forward\n"
                 "! sakana.json [2] (Task_ID 54) CUDA_Code: a torch extension (.cu with PYBIND11_MODULE binding forward) "
                 "for a problem whose Model keeps state (parameters or attributes set in __init__): which of them its "
                 "forward takes, and in which order, cannot be told without guessing. Give the problem in the functional "
                 "form (forward(self, ..., fn=module_fn), Sakana's PyTorch_Code_Functional) as the reference, or a ModelNew"_s);
        QCOMPARE(candidateKind(c.pairs.at(0).candidateSource), CandidateKind::ModelNew);
        QVERIFY(c.pairs.at(0).candidateSource.contains(u"return super().forward(*args, fn=_kforge_extension.forward)"_s));
        QVERIFY(c.pairs.at(1).candidateSource.contains(u"return _kforge_extension.forward(*args)"_s));
        // The scripted worker's marker line stays findable.
        QVERIFY(c.pairs.at(0).candidateSource.contains(u"\n// kforge-scripted: verdict=correct speedup=1.30\n"_s));
        QVERIFY(!TorchExtension::isExtension(u"class ModelNew(nn.Module):\n    pass\n"_s));

        // The wrappers in Python with torch: load_inline replaced by a stand-in whose forward computes what the
        // extension's CUDA computes, ModelNew(*init) gives Model(*init)'s output from the same seed (so the
        // parameters reach the extension in the problem's order).
        QString python;
        for (const QString &candidate : {qEnvironmentVariable("KFORGE_TORCH_PYTHON"), u"python3"_s, u"/usr/bin/python3"_s}) {
            QProcess p;
            if (candidate.isEmpty())
                continue;
            p.start(candidate, {u"-c"_s, u"import torch"_s});
            if (p.waitForFinished(120000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0) {
                python = candidate;
                break;
            }
        }
        if (python.isEmpty())
            QSKIP("SKIP (the Python half): no python3 with torch");
        QTemporaryDir dir;
        const QList<std::pair<QString, QString>> stand = {
            {c.pairs.at(0).candidateSource, u"lambda x, w, b: torch.relu(x @ w.t() + b)"_s},
            {c.pairs.at(1).candidateSource, u"lambda x: torch.clamp_min(x, 0)"_s}};
        for (const auto &[module, forward] : stand) {
            const QString file = dir.filePath(u"candidate.py"_s);
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(module.toUtf8());
            f.close();
            const QString script =
                u"import importlib.util, types, torch, torch.utils.cpp_extension as ext\n"
                "ext.load_inline = lambda **kw: types.SimpleNamespace(forward=%1)\n"
                "spec = importlib.util.spec_from_file_location('candidate', '%2')\n"
                "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
                "torch.manual_seed(0); ref = m.Model(*m.get_init_inputs())\n"
                "torch.manual_seed(0); new = m.ModelNew(*m.get_init_inputs())\n"
                "x = m.get_inputs()\n"
                "print('same' if torch.allclose(ref(*x), new(*x), atol=1e-5) else 'different')\n"_s.arg(forward, file);
            QProcess p;
            p.start(python, {u"-c"_s, script});
            QVERIFY(p.waitForFinished(120000));
            const QString said = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
            QVERIFY2(said == u"same"_s, qPrintable(said + QString::fromUtf8(p.readAllStandardError())));
        }
    }

    void releasedJsonRecords()
    {
        // Equal problem texts share one task; a repeated task id gets #2; another text under a used name a suffix;
        // a score that is not a number is a note, the pair still runs.
        QTemporaryDir dir;
        const QString other = QString::fromUtf8(kProblem).replace(u"x * 2"_s, u"x * 3"_s);
        const QJsonArray records{
            QJsonObject{{u"task_id"_s, 7},
                        {u"ref_code"_s, QString::fromUtf8(kProblem)},
                        {u"custom_code"_s, QString::fromUtf8(kCandidate)},
                        {u"score"_s, u"fast"_s}},
            QJsonObject{{u"task_id"_s, 7},
                        {u"ref_code"_s, QString::fromUtf8(kProblem)},
                        {u"custom_code"_s, QString::fromUtf8(kCandidate)},
                        {u"score"_s, u"×2.5"_s}},
            QJsonObject{{u"task_id"_s, 7}, {u"ref_code"_s, other}, {u"custom_code"_s, QString::fromUtf8(kCandidate)}},
            QJsonObject{{u"task_id"_s, u"b"_s},
                        {u"ref_code"_s, QString::fromUtf8(kProblem)},
                        {u"custom_code"_s, u"print('hi')"_s}},
            QJsonObject{{u"ref_code"_s, QString::fromUtf8(kProblem)}},
        };
        const Collection c = readOrFail(writeJson(dir, u"list.json"_s, QJsonDocument(records)), {});
        QCOMPARE(dump(c), u"7 | task_7 | ModelNew | - | L0 P7 S-1 | task_7.py | the claimed speedup (score) \"fast\" is not a "
                          "number: no claim\n"
                          "7#2 | task_7 | ModelNew | 2.5 | L0 P7 S-1 | task_7.py\n"
                          "7#3 | task_7_2 | ModelNew | - | L0 P7 S-1 | task_7_2.py\n"
                          "! list.json [3] (task_id b): the candidate's code defines no class ModelNew and no KF_ENTRY\n"
                          "! list.json [4]: no candidate code: the record has no field custom_code (name another with "
                          "--map custom_code=FIELD)"_s);
    }

    void releasedJsonErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::addRow("not JSON") << QByteArray("{\"level1\": [") << u"is not JSON"_s;
        QTest::addRow("no list") << QByteArray("{\"meta\": {\"paper\": \"x\"}}") << u"holds no list of records"_s;
    }
    void releasedJsonErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        QTemporaryDir dir;
        QFile f(dir.filePath(u"bad.json"_s));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        const CollectionReadResult r = CollectionReader::read(f.fileName(), {});
        QVERIFY(!r.collection);
        QVERIFY2(r.error.contains(error), qPrintable(r.error));
    }

    void kernelBenchRun()
    {
        CollectionOptions o;
        o.problems = kRoot + u"/kernelbench"_s;
        o.baseline = kRoot + u"/run/baseline_time_torch.json"_s;
        const Collection c = readOrFail(kRoot + u"/run/level1_demo"_s, o);
        QCOMPARE(c.format, CollectionFormat::KernelBenchRun);
        QString expected = QString::fromUtf8(kRunDump);
        expected.replace(u"@PROBLEMS@"_s, kRoot + u"/kernelbench"_s);
        QCOMPARE(dump(c), expected);
        // Without --problems: the one thing missing said.
        const CollectionReadResult none = CollectionReader::read(kRoot + u"/run/level1_demo"_s, {});
        QVERIFY(!none.collection);
        QVERIFY(none.error.contains(u"--problems"_s));
    }

    void detect_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("format"); // -1: none
        QTest::addRow("json") << kRoot + u"/released/kernels.json"_s << int(CollectionFormat::ReleasedJson);
        QTest::addRow("run") << kRoot + u"/run/level1_demo"_s << int(CollectionFormat::KernelBenchRun);
        QTest::addRow("folder") << kRoot + u"/folder"_s << int(CollectionFormat::ProblemFolder);
        QTest::addRow("missing") << kRoot + u"/nothing-here"_s << -1;
        QTest::addRow("not json") << kRoot + u"/folder/candidates/README.txt"_s << -1;
    }
    void detect()
    {
        QFETCH(QString, path);
        QFETCH(int, format);
        QString why;
        const std::optional<CollectionFormat> f = CollectionReader::detect(path, {}, &why);
        QCOMPARE(f ? int(*f) : -1, format);
        QCOMPARE(why.isEmpty(), f.has_value());
    }

    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("level");
        QTest::addColumn<int>("number");
        QTest::addRow("kernelbench") << u"level1/19_ReLU"_s << 1 << -1;
        QTest::addRow("leading") << u"19_ReLU"_s << 0 << 19;
        QTest::addRow("prefix") << u"level2_7_gemm"_s << 2 << 7;
        QTest::addRow("run file") << u"level_3_problem_12_sample_0_kernel"_s << 3 << 12;
        QTest::addRow("problem word") << u"relu_problem_4"_s << 0 << 4;
        QTest::addRow("p") << u"p5_fast"_s << 0 << 5;
        QTest::addRow("none") << u"double_fast"_s << 0 << -1;
        QTest::addRow("levels folder") << u"Level-4/x"_s << 4 << -1;
    }
    void names()
    {
        QFETCH(QString, name);
        QFETCH(int, level);
        QFETCH(int, number);
        QCOMPARE(ProblemIndex::levelIn(name), level);
        if (!name.contains(u'/'))
            QCOMPARE(ProblemIndex::numberIn(name), number);
    }

    void speedups_data()
    {
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<double>("expected"); // -1: none
        QTest::addRow("number") << QJsonValue(3.5) << 3.5;
        QTest::addRow("x") << QJsonValue(u"1.4x"_s) << 1.4;
        QTest::addRow("times") << QJsonValue(u"×12"_s) << 12.0;
        QTest::addRow("plain") << QJsonValue(u" 0.8 "_s) << 0.8;
        QTest::addRow("word") << QJsonValue(u"fast"_s) << -1.0;
        QTest::addRow("null") << QJsonValue() << -1.0;
        QTest::addRow("bool") << QJsonValue(true) << -1.0;
    }
    void speedups()
    {
        QFETCH(QJsonValue, value);
        QFETCH(double, expected);
        const std::optional<double> s = ReleasedJsonReader::parseSpeedup(value);
        QCOMPARE(s.value_or(-1), expected);
    }

    void naturalOrder()
    {
        QStringList names{u"level1/10_a.py"_s, u"level1/2_b.py"_s, u"level10/1_c.py"_s, u"level2/1_d.py"_s};
        std::sort(names.begin(), names.end(), ProblemIndex::naturalLess);
        QCOMPARE(names, (QStringList{u"level1/2_b.py"_s, u"level1/10_a.py"_s, u"level2/1_d.py"_s, u"level10/1_c.py"_s}));
    }
};

QTEST_GUILESS_MAIN(CollectionReadersTest)
#include "tst_collectionreaders.moc"
