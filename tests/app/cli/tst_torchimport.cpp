// `kforge-cli import` on the KernelBench-format problems of tests/fixtures/torch_problems (all import: shapes
// as expressions over the size constants, dtypes, parameters and buffers in order, scalar and integer inputs,
// the degenerate flag, FLOPs where torch counts them, huge problems without materialising them) and on the broken
// ones of tests/fixtures/torch_problems_bad (each fails at its step). Needs a python3 with torch: SKIP without.
#include "core/task/task.h"
#include "tests/app/cli/clirun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QString kGood = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/torch_problems");
const QString kBad = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/torch_problems_bad");

using Run = kforge::test::CliRun;

Run cli(const QStringList &args)
{
    return kforge::test::runCli(QStringLiteral("import"), args, 500000);
}

QJsonObject readTask(const QString &folder)
{
    QFile f(folder + u"/task.json"_s);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QJsonArray shapeOf(const QJsonObject &task, const QString &list, int i)
{
    return task.value(list).toArray().at(i).toObject().value(u"shape"_s).toArray();
}

QJsonArray strings(std::initializer_list<const char *> items)
{
    QJsonArray a;
    for (const char *s : items)
        a.append(QString::fromUtf8(s));
    return a;
}

} // namespace

class TorchImportTest : public QObject
{
    Q_OBJECT

    QString m_python;
    int m_major = 0, m_minor = 0;

private slots:
    void initTestCase()
    {
        for (const QString &python : {u"python3"_s, u"/usr/bin/python3"_s}) {
            QProcess p;
            p.start(python, {u"-c"_s, u"import sys, torch; sys.stdout.write(torch.__version__)"_s});
            if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
                continue;
            const QStringList v = QString::fromUtf8(p.readAllStandardOutput()).split(u'.');
            m_python = python;
            m_major = v.value(0).toInt();
            m_minor = v.value(1).toInt();
            qInfo("torch %d.%d from %s", m_major, m_minor, qPrintable(python));
            return;
        }
        QSKIP("SKIP: no python3 with torch (tried python3, /usr/bin/python3)");
    }

    void importsTheGoodFolder()
    {
        QTemporaryDir out;
        QElapsedTimer clock;
        clock.start();
        const Run r = cli({kGood, u"--out"_s, out.path(), u"--python"_s, m_python});
        qInfo("imported %s in %.1f s", qPrintable(kGood), clock.elapsed() / 1000.0);
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        const int problems = int(QDir(kGood).entryList({u"*.py"_s}, QDir::Files).size());
        QVERIFY(problems >= 20);
        QVERIFY2(r.out.contains(u"Imported %1 of %1 problem(s)"_s.arg(problems)), qPrintable(r.out));
        QCOMPARE(r.out.count(QRegularExpression(u"^\\[\\d+/%1\\] .*: imported as "_s.arg(problems),
                                                QRegularExpression::MultilineOption)),
                 problems);

        // Matrix product: shapes over the params, uniform inputs, FLOPs where torch counts them.
        const QString mm = out.filePath(u"level1_01_matmul"_s);
        QFile ref(mm + u"/reference.py"_s), src(kGood + u"/level1_01_matmul.py"_s);
        QVERIFY(ref.open(QIODevice::ReadOnly) && src.open(QIODevice::ReadOnly));
        QCOMPARE(ref.readAll(), src.readAll());
        QJsonObject t = readTask(mm);
        QCOMPARE(t.value(u"kind"_s).toString(), u"torch"_s);
        QCOMPARE(t.value(u"params"_s).toObject().value(u"K"_s).toInt(), 2048);
        QCOMPARE(t.value(u"params"_s).toObject().keys().size(), 3);
        QCOMPARE(shapeOf(t, u"inputs"_s, 0), strings({"M", "K"}));
        QCOMPARE(shapeOf(t, u"inputs"_s, 1), strings({"K", "N"}));
        QCOMPARE(shapeOf(t, u"outputs"_s, 0), strings({"M", "N"}));
        QCOMPARE(t.value(u"inputs"_s).toArray().at(0).toObject().value(u"init"_s).toObject().value(u"dist"_s), u"uniform"_s);
        QCOMPARE(t.value(u"degenerate"_s), QJsonValue(false));
        QCOMPARE(t.value(u"bytes"_s).toString(), u"4*K*M + 4*K*N + 4*M*N"_s);
        // Counted at torch's dispatcher (kforge_torch_flops.py), the same on torch 1.13 and 2.x.
        const QString flopsHow = t.value(u"derived"_s).toObject().value(u"flops"_s).toString();
        QCOMPARE(t.value(u"flops"_s).toString(), u"2*M*K*N"_s);
        QVERIFY2(flopsHow.startsWith(u"counted on the meta forward"_s), qPrintable(flopsHow));
        QVERIFY(t.value(u"derived"_s).toObject().value(u"tolerance"_s).toString().contains(u"KernelBench"_s));

        // 4 GiB of weights, never materialised: parameters in named_parameters() order, the real run scaled down.
        t = readTask(out.filePath(u"level1_03_linear_huge"_s));
        const QJsonArray params = t.value(u"parameters"_s).toArray();
        QCOMPARE(params.size(), 2);
        QCOMPARE(params.at(0).toObject().value(u"name"_s).toString(), u"fc.weight"_s);
        QCOMPARE(params.at(0).toObject().value(u"shape"_s).toArray(), strings({"out_features", "in_features"}));
        QCOMPARE(params.at(1).toObject().value(u"name"_s).toString(), u"fc.bias"_s);
        QVERIFY(t.value(u"derived"_s).toObject().value(u"degenerate"_s).toString().contains(u"scaled down"_s));
        QCOMPARE(t.value(u"init_inputs"_s).toArray(), (QJsonArray{32768, 32768}));

        // Buffers in named_buffers() order, an integer one among them.
        t = readTask(out.filePath(u"level1_14_batchnorm"_s));
        const QJsonArray buffers = t.value(u"buffers"_s).toArray();
        QCOMPARE(buffers.size(), 3);
        QCOMPARE(buffers.at(0).toObject().value(u"name"_s).toString(), u"bn.running_mean"_s);
        QCOMPARE(buffers.at(2).toObject().value(u"name"_s).toString(), u"bn.num_batches_tracked"_s);
        QCOMPARE(buffers.at(2).toObject().value(u"dtype"_s).toString(), u"i64"_s);

        // Integer inputs, a Python scalar argument, a half input, a 0-d output, a tuple of outputs, conv shapes.
        t = readTask(out.filePath(u"level1_08_embedding_int"_s));
        QJsonObject ids = t.value(u"inputs"_s).toArray().at(0).toObject();
        QCOMPARE(ids.value(u"dtype"_s).toString(), u"i64"_s);
        QCOMPARE(ids.value(u"init"_s).toObject().value(u"high"_s).toInt(), 50000);
        QCOMPARE(shapeOf(t, u"outputs"_s, 0), strings({"batch_size", "seq_len", "width"}));
        t = readTask(out.filePath(u"level1_09_scale_scalar"_s));
        const QJsonObject alpha = t.value(u"inputs"_s).toArray().at(1).toObject();
        QCOMPARE(alpha.value(u"name"_s).toString(), u"alpha"_s);
        QCOMPARE(alpha.value(u"scalar"_s).toString(), u"float"_s);
        QCOMPARE(alpha.value(u"value"_s).toDouble(), 3.5);
        t = readTask(out.filePath(u"level1_05_gelu_half"_s));
        QCOMPARE(t.value(u"outputs"_s).toArray().at(0).toObject().value(u"dtype"_s).toString(), u"f16"_s);
        QVERIFY(t.value(u"tolerance"_s).toObject().contains(u"f16"_s));
        t = readTask(out.filePath(u"level1_16_mse_loss"_s));
        QCOMPARE(shapeOf(t, u"outputs"_s, 0), QJsonArray());
        t = readTask(out.filePath(u"level2_24_topk_tuple"_s));
        QCOMPARE(t.value(u"outputs"_s).toArray().size(), 2);
        QCOMPARE(t.value(u"outputs"_s).toArray().at(1).toObject().value(u"dtype"_s).toString(), u"i64"_s);
        QCOMPARE(shapeOf(t, u"outputs"_s, 1), strings({"batch_size", "k"}));
        t = readTask(out.filePath(u"level1_11_conv2d"_s));
        QCOMPARE(shapeOf(t, u"outputs"_s, 0).at(2).toString(), u"height - 2"_s);
        t = readTask(out.filePath(u"level1_12_maxpool2d"_s));
        QCOMPARE(shapeOf(t, u"outputs"_s, 0).at(3).toString(), u"width/2"_s);

        // Inputs asked for on CUDA are made on meta and the CPU here, with a note.
        t = readTask(out.filePath(u"level1_25_cuda_inputs"_s));
        QCOMPARE(shapeOf(t, u"inputs"_s, 1), strings({"dim"}));
        QVERIFY(QJsonDocument(t.value(u"derived"_s).toObject().value(u"notes"_s).toArray()).toJson().contains("asks for CUDA tensors"));

        // Degenerate: outputs equal for inputs of two seeds; the others differ.
        QCOMPARE(readTask(out.filePath(u"level1_10_degenerate"_s)).value(u"degenerate"_s), QJsonValue(true));
        QCOMPARE(readTask(out.filePath(u"level2_21_conv3d_groupnorm_min"_s)).value(u"degenerate"_s), QJsonValue(true));
        QCOMPARE(readTask(out.filePath(u"level1_04_relu"_s)).value(u"degenerate"_s), QJsonValue(false));

        // The Qt-side loader reads it as a torch task (for kforge-worker to judge), never as a CUDA task: its
        // task.json goes to the worker as written and its reference is reference.py.
        const kforge::TaskLoadResult loaded = kforge::Task::load(mm);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error.message()));
        QVERIFY(loaded.task->isTorch());
        QCOMPARE(loaded.task->referenceFileName(), u"reference.py"_s);
        QCOMPARE(loaded.task->toJson(), readTask(mm));
    }

    void reportsEachBrokenProblem()
    {
        QTemporaryDir out;
        const Run r = cli(
            {kBad, u"--out"_s, out.path(), u"--python"_s, m_python, u"--jobs"_s, u"2"_s, u"--timeout"_s, u"15"_s});
        QVERIFY2(r.code == 1, qPrintable(r.out + r.err));
        const QList<std::pair<QString, QString>> expected = {
            {u"constructor_raises.py"_s, u"construct"_s}, {u"import_error.py"_s, u"import"_s},
            {u"no_get_inputs.py"_s, u"lookup"_s},         {u"no_model.py"_s, u"lookup"_s},
            {u"raises_in_forward.py"_s, u"forward"_s},    {u"returns_non_tensor.py"_s, u"output"_s},
            {u"shape_changes.py"_s, u"repeat"_s},         {u"hangs_in_forward.py"_s, u"timeout"_s},
        };
        QVERIFY2(r.out.contains(u"Imported 0 of %1 problem(s)"_s.arg(expected.size())), qPrintable(r.out));
        QVERIFY2(r.out.contains(u"Not imported (%1):"_s.arg(expected.size())), qPrintable(r.out));
        for (const auto &[file, step] : expected) {
            const QString line = u"  "_s + kBad + u'/' + file + u": "_s + step + u": "_s;
            QVERIFY2(r.out.contains(line), qPrintable(u"no line '%1' in:\n%2"_s.arg(line, r.out)));
        }
        QVERIFY(r.out.contains(u"ModuleNotFoundError: No module named 'kforge_no_such_module_anywhere'"_s));
        QVERIFY(r.out.contains(u"mat1 and mat2 shapes cannot be multiplied"_s));
        QVERIFY(r.out.contains(u"forward returned a float, not a tensor"_s));
        QVERIFY(r.out.contains(u"no result within 15 s"_s));
        QVERIFY(QDir(out.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty());

        // A missing file is a usage error; an unknown python is named.
        QCOMPARE(cli({kBad + u"/nothing_here.py"_s, u"--out"_s, out.path()}).code, 2);
        const Run noPython = cli({kBad, u"--out"_s, out.path(), u"--python"_s, u"/nonexistent/python3"_s});
        QCOMPARE(noPython.code, 1);
        QVERIFY2(noPython.err.contains(u"/nonexistent/python3: cannot be started"_s), qPrintable(noPython.err));
    }
};

QTEST_GUILESS_MAIN(TorchImportTest)
#include "tst_torchimport.moc"
