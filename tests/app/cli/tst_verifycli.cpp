// `kforge-cli verify` as a user runs it, on the collections of tests/fixtures/collections: --plan on each layout
// (read, paired, imported with a python3 that has torch on the CPU; the table and every record that could not be
// verified with its cause), usage errors, a whole run through the worker pool with the scripted worker
// (tests/fixtures/workers/scripted-worker.sh collection: answers what each candidate's marker line says, never a
// measurement) and the real nvcc for the .cu candidates, its results.jsonl, results.csv and report.html, and a run
// killed with SIGKILL in the middle, started again: the pairs measured are kept, none is measured twice.
// SKIP without a python3 that has torch.
#include "tests/app/cli/clirun.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QString kRoot = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/collections");
const QString kWorker = u"bash "_s + QStringLiteral(KFORGE_TEST_SOURCE_DIR)
                        + u"/tests/fixtures/workers/scripted-worker.sh collection"_s;

QStringList lines(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts);
}

// (pair, run) of every line of results.jsonl.
QStringList runsOf(const QString &path)
{
    QStringList out;
    for (const QString &l : lines(path)) {
        const QJsonObject o = QJsonDocument::fromJson(l.toUtf8()).object();
        out << o[u"pair"_s].toString() + u' ' + o[u"run"_s].toString() + u' ' + o[u"result"_s][u"verdict"_s].toString();
    }
    return out;
}

using CliRun = kforge::test::CliRun;

} // namespace

class VerifyCliTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcessEnvironment m_env;

    CliRun verify(const QStringList &args)
    {
        const CliRun r = kforge::test::runCli(u"verify"_s, args, 300000, m_env);
        if (r.code < 0 || r.code == 3)
            qWarning().noquote() << r.out << r.err;
        return r;
    }
    QString out(const QString &name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_env = QProcessEnvironment::systemEnvironment();
        m_env.insert(u"XDG_CONFIG_HOME"_s, m_dir.filePath(u"config"_s));
        m_env.insert(u"XDG_CACHE_HOME"_s, m_dir.filePath(u"cache"_s));
        m_env.insert(u"XDG_DATA_HOME"_s, m_dir.filePath(u"data"_s));
        m_env.remove(u"KFORGE_VERBOSE"_s);
        for (const QString &python : {qEnvironmentVariable("KFORGE_TORCH_PYTHON"), u"python3"_s, u"/usr/bin/python3"_s}) {
            if (python.isEmpty())
                continue;
            QProcess p;
            p.start(python, {u"-c"_s, u"import torch"_s});
            if (p.waitForFinished(120000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0) {
                m_env.insert(u"KFORGE_TORCH_PYTHON"_s, python);
                return;
            }
        }
        QSKIP("SKIP: no python3 with torch (tried $KFORGE_TORCH_PYTHON, python3, /usr/bin/python3)");
    }

    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::addRow("no --out") << QStringList{kRoot + u"/released/kernels.json"_s} << u"Usage: kforge-cli verify"_s;
        QTest::addRow("bad --map") << QStringList{kRoot + u"/released/kernels.json"_s, u"--out"_s, u"x"_s, u"--map"_s,
                                                  u"code=x"_s}
                                   << u"--map takes field=name with field one of task_id, ref_code, custom_code, score, level"_s;
        QTest::addRow("bad --format") << QStringList{kRoot + u"/released/kernels.json"_s, u"--out"_s, u"x"_s,
                                                     u"--format"_s, u"zip"_s}
                                      << u"--format is folder, json or run, not 'zip'"_s;
        QTest::addRow("run without problems")
            << QStringList{kRoot + u"/run/level1_demo"_s, u"--out"_s, u"x"_s} << u"name the problems with --problems"_s;
        QTest::addRow("missing") << QStringList{kRoot + u"/nothing"_s, u"--out"_s, u"x"_s} << u"no such file or folder"_s;
    }
    void usage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const CliRun r = verify(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(says), qPrintable(r.err));
    }

    void planFolder()
    {
        const CliRun r = verify({kRoot + u"/folder/candidates"_s, u"--problems"_s, kRoot + u"/kernelbench"_s,
                                 u"--out"_s, out(u"folder"_s), u"--plan"_s});
        QCOMPARE(r.code, 1); // records that could not be verified
        QVERIFY2(r.out.contains(u"a folder collection, 20 pairs (20 selected), 3 records not verified"_s),
                 qPrintable(r.out));
        for (const QString &issue :
             {u"candidates/5_which_level.py: ambiguous: problem 5 is in several levels"_s,
              u"candidates/42_no_such_problem.py: pairs with no problem: no problem is numbered 42"_s,
              u"candidates/level1/12_mean_notes.py: defines no class ModelNew"_s,
              u"candidates/README.txt: not a candidate (a .py module or a .cu kernel): left out"_s})
            QVERIFY2(r.out.contains(issue), qPrintable(issue));
        QVERIFY(r.out.contains(u"(20 problems, 0 not imported;"_s));
        // A row per pair: id, problem, kind, claim, held-out sizes, what the import said.
        QVERIFY(r.out.contains(u"level1/1_Square_matrix_multiplication_.py  level1_1_square_matrix_multiplication_"_s));
        QVERIFY(r.out.contains(u"N 256→193/129"_s));
        QVERIFY(r.out.contains(u"level1/7_matvec_warp.cu"_s));
        QVERIFY(r.out.contains(u"imported; degenerate: the output does not depend on the inputs"_s));
        QCOMPARE(r.out.count(u"  ModelNew  "_s) + r.out.count(u"  .cu       "_s), 20);
        QCOMPARE(QDir(out(u"folder/tasks"_s)).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 60);
        QVERIFY(!QFile::exists(out(u"folder/results.jsonl"_s))); // --plan runs nothing
        // Again: every task folder kept, nothing imported.
        const CliRun again = verify({kRoot + u"/folder/candidates"_s, u"--problems"_s, kRoot + u"/kernelbench"_s,
                                     u"--out"_s, out(u"folder"_s), u"--plan"_s});
        QVERIFY(again.out.contains(u"Imported 0 problem texts"_s));
        QCOMPARE(again.out.count(u"task kept from an earlier run"_s), 20);
    }

    void planReleasedJson()
    {
        const CliRun r = verify({kRoot + u"/released/kernels.json"_s, u"--out"_s, out(u"json"_s), u"--plan"_s});
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.contains(u"a json collection, 3 pairs (3 selected), 3 records not verified"_s));
        QVERIFY(r.out.contains(u"kernels.json level1[2] (task_id 9): the candidate's code (custom_code) is empty"_s));
        QVERIFY(r.out.contains(u"kernels.json level1[3] (task_id 6): the reference's code defines no class Model"_s));
        QVERIFY(r.out.contains(u"kernels.json level2[1]: not a record"_s));
        QVERIFY(r.out.contains(u"level1/2  level1_2  ModelNew  1.35x"_s));
        QVERIFY(r.out.contains(u"level2/3  level2_3  ModelNew  40.2x"_s));
    }

    void planMappedJson()
    {
        const CliRun r = verify({kRoot + u"/released/mapped.json"_s, u"--map"_s, u"task_id=id"_s, u"--map"_s,
                                 u"ref_code=reference"_s, u"--map"_s, u"custom_code=kernel"_s, u"--map"_s,
                                 u"score=speedup_claimed"_s, u"--out"_s, out(u"mapped"_s), u"--plan"_s, u"--no-heldout"_s});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(u"2 pairs (2 selected), 0 records not verified"_s));
        QVERIFY(r.out.contains(u"sum   task_sum   ModelNew  2.60x"_s));
        QVERIFY(r.out.contains(u"off"_s)); // --no-heldout
    }

    void planRunFolder()
    {
        const CliRun r = verify({kRoot + u"/run/level1_demo"_s, u"--problems"_s, kRoot + u"/kernelbench"_s,
                                 u"--baseline"_s, kRoot + u"/run/baseline_time_torch.json"_s, u"--out"_s, out(u"run"_s),
                                 u"--plan"_s, u"--only"_s, u"problem_2"_s});
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.contains(u"a run collection, 4 pairs (2 selected), 2 records not verified"_s));
        QVERIFY(r.out.contains(
            u"level_1_problem_3_sample_0_kernel.py: empty: the generation wrote no code for this sample"_s));
        QVERIFY(r.out.contains(u"level_1_problem_2_sample_0_kernel  level1_2_relu  ModelNew  1.11x"_s));
        QVERIFY(r.out.contains(u"KernelBench found it not correct: Output mismatch"_s));
        QVERIFY(!r.out.contains(u"level_1_problem_1_sample_0_kernel  "_s)); // not selected
    }

    void runFolder()
    {
        if (QStandardPaths::findExecutable(u"nvcc"_s).isEmpty() && !QFile::exists(u"/usr/local/cuda/bin/nvcc"_s))
            QSKIP("SKIP: no nvcc for the .cu candidates");
        // The task folders of planFolder are reused.
        const CliRun r = verify({kRoot + u"/folder/candidates"_s, u"--problems"_s, kRoot + u"/kernelbench"_s,
                                 u"--out"_s, out(u"folder"_s), u"--worker"_s, kWorker});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains(u"Verifying 20 pairs (0 complete already) on 1 worker(s)"_s), qPrintable(r.out));
        QVERIFY(r.out.contains(u"[20/20] "_s));
        QVERIFY(r.out.contains(u", ETA "_s));
        const QStringList runs = runsOf(out(u"folder/results.jsonl"_s));
        QCOMPARE(runs.size(), 56);
        QCOMPARE(QSet<QString>(runs.begin(), runs.end()).size(), 56);
        for (const QString &run :
             {u"level1/5_sum_fixed_shape.py heldout_1 incorrect"_s, u"level1/4_layernorm_half.py tol_1e-3 incorrect"_s,
              u"level1/4_layernorm_half.py tol_1e-2 correct"_s, u"level1/9_tanh_wrong.py tol_1e-2 incorrect"_s,
              u"level1/8_sigmoid_broken.cu main compile_error"_s, u"level1/7_matvec_warp.cu heldout_2 correct"_s,
              u"level2/6_gemm_gelu_softmax.py main cuda_error"_s})
            QVERIFY2(runs.contains(run), qPrintable(run));
        // The stored result shape: the worker's result as a session keeps it, the compiler's summary for a .cu.
        for (const QString &l : lines(out(u"folder/results.jsonl"_s))) {
            const QJsonObject o = QJsonDocument::fromJson(l.toUtf8()).object();
            if (o[u"pair"_s] == u"level1/8_sigmoid_broken.cu"_s)
                QVERIFY(o[u"result"_s][u"compile"_s][u"log"_s].toString().contains(u"undeclared_scale"_s));
        }

        const QStringList csv = lines(out(u"folder/results.csv"_s));
        QCOMPARE(csv.size(), 1 + 20 + 1); // the header, a row per pair, the compile error's second line
        QVERIFY(csv.first().startsWith(u"pair,problem,candidate,kind,level,verdict,speedup,speedup_low,speedup_high,"_s));
        const QString all = csv.join(u'\n');
        QVERIFY(all.contains(u"level1/5_sum_fixed_shape.py,level1/5_Sum_reduction_over_a_dimension.py,level1/5_sum_fixed_shape.py,"
                             "ModelNew,1,correct,2.5,2.426,2.577,,,,shape_specific,#15 shape hard-coding"_s));
        QVERIFY(all.contains(u",side_stream_work,#1 side-stream / unjoined async work,"_s));
        QVERIFY(all.contains(u",loose_tolerance,#12 precision downgrade (passes only at a looser tolerance),1e-2,"_s));
        QVERIFY(all.contains(u",degenerate_output,#13 degenerate output"_s));
        QVERIFY(all.contains(u"ModelNew,2,cuda_error,"_s));

        QFile html(out(u"folder/report.html"_s));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QString h = QString::fromUtf8(html.readAll());
        QVERIFY2(h.contains(u"<td>correct / total</td><td class=\"num\">—</td><td class=\"num\">16 / 20</td>"_s),
                 qPrintable(h.section(u"correct / total"_s, 1, 1).left(200)));
        QVERIFY(h.contains(u"<svg"_s));
        QVERIFY(h.contains(u"candidates/42_no_such_problem.py"_s));
        QVERIFY(h.indexOf(u"level1/6_gelu_side_stream.py</td>"_s) < h.indexOf(u"level1/2_ReLU.py</td>"_s));
        QVERIFY(r.out.contains(u"correct 16 of 20;"_s));

        // Everything measured: a run again starts no worker and writes the same report.
        const CliRun again = verify({kRoot + u"/folder/candidates"_s, u"--problems"_s, kRoot + u"/kernelbench"_s,
                                     u"--out"_s, out(u"folder"_s), u"--worker"_s, u"/nonexistent/worker"_s});
        QCOMPARE(again.code, 1);
        QVERIFY(again.out.contains(u"nothing to run"_s));
        QCOMPARE(lines(out(u"folder/results.jsonl"_s)).size(), 56);
    }

    void resumeAfterKill()
    {
        const QStringList args{kRoot + u"/released/kernels.json"_s, u"--out"_s, out(u"resume"_s), u"--worker"_s, kWorker};
        QProcessEnvironment slow = m_env;
        slow.insert(u"KFORGE_SCRIPTED_DELAY"_s, u"0.4"_s);
        QProcess p;
        p.setProcessEnvironment(slow);
        p.start(QStringLiteral(KFORGE_CLI), QStringList{u"verify"_s} + args);
        const QString log = out(u"resume/results.jsonl"_s);
        QTRY_VERIFY_WITH_TIMEOUT(lines(log).size() >= 3, 120000);
        p.kill(); // SIGKILL: no chance to tidy up
        QVERIFY(p.waitForFinished(5000));
        const QStringList before = lines(log);
        QVERIFY(before.size() < 9);

        // Started again on a pool of two workers.
        const CliRun r = verify(args + QStringList{u"--worker"_s, kWorker});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains(u"on 2 worker(s)"_s), qPrintable(r.out));
        const QStringList after = lines(log);
        QCOMPARE(after.size(), 9);                     // 3 pairs: main and two held-out sizes each
        QCOMPARE(after.mid(0, before.size()), before); // kept, not measured again
        const QStringList runs = runsOf(log);
        QCOMPARE(QSet<QString>(runs.begin(), runs.end()).size(), 9);
        QVERIFY(r.out.contains(u"Claims that hold within their noise: 1 of 3"_s));
    }
};

QTEST_GUILESS_MAIN(VerifyCliTest)
#include "tst_verifycli.moc"
