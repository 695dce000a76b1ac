// Task loading on the Qt side: the built-in tasks, and broken task folders whose messages must name the
// file, the field and the problem; torch tasks (kind "torch") and a source's language.
#include "core/task/sourcelanguage.h"
#include "core/task/task.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace kforge;

namespace {

const char *kGoodJson = R"({
  "name": "scale",
  "title": "x * 2",
  "description": "Doubles a vector.",
  "params": {"N": 1024},
  "inputs": [{"name": "X", "dtype": "f32", "shape": ["N"], "init": {"dist": "uniform", "low": -1, "high": 1}}],
  "outputs": [{"name": "Y", "dtype": "f32", "shape": ["N"]}],
  "flops": "N",
  "bytes": "8*N",
  "timeout_s": 12,
  "nvcc_flags": ["-DTASK_FLAG"],
  "variants": [{"file": "variants/fast.cu", "label": "fast", "nvcc_flags": ["--use_fast_math"],
                "expect": {"verdict": "correct", "min_speedup": 1.5}}]
})";

// As kforge-cli import writes it (shortened): shapes over params, a scalar argument, parameters.
const char *kTorchJson = R"json({
  "kind": "torch", "name": "linear_scale", "title": "Linear then scale", "description": "y = alpha * (W x + b)",
  "reference": "reference.py", "params": {"batch": 8, "features": 16}, "init_inputs": [16],
  "inputs": [{"name": "x", "dtype": "f32", "shape": ["batch", "features"], "init": {"dist": "normal"}},
             {"name": "alpha", "scalar": "float", "value": 0.5}],
  "parameters": [{"name": "linear.weight", "dtype": "f32", "shape": ["features", "features"]},
                 {"name": "linear.bias", "dtype": "f32", "shape": ["features"]}],
  "buffers": [], "outputs": [{"name": "out", "dtype": "f32", "shape": ["batch", "features"]}],
  "tolerance": {"f32": {"atol": 0.0001, "rtol": 0.0001}}, "flops": null, "bytes": "4*batch*features",
  "degenerate": false, "timeout_s": 30,
  "variants": [{"file": "variants/fused.py", "label": "fused", "expect": {"verdict": "correct"}}]
})json";

bool writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

} // namespace

class TestTask : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void builtinTasks();
    void builtinTasksIncludeTheFamousOnes();
    void loadsAFolder();
    void brokenFolders_data();
    void brokenFolders();
    void notAFolder();
    void unknownKeysAreWarnings();
    void loadsATorchTask();
    void sourceLanguages();
};

void TestTask::builtinTasks()
{
    const QString root = Task::builtinTasksDir();
    QVERIFY2(!root.isEmpty(), "no built-in tasks found");
    const QStringList folders = Task::builtinTaskFolders();
    QVERIFY2(folders.size() >= 10, qPrintable(u"%1 built-in tasks in %2"_s.arg(folders.size()).arg(root)));
    for (const QString &folder : folders) {
        const TaskLoadResult r = Task::load(folder);
        QVERIFY2(r.ok(), qPrintable(r.error.message()));
        const Task &t = *r.task;
        QCOMPARE(t.name(), QFileInfo(folder).fileName());
        QVERIFY2(!t.description().isEmpty(), qPrintable(t.name()));
        QVERIFY2(t.referenceSource().contains(u"KF_ENTRY"), qPrintable(t.name()));
        QVERIFY2(t.variants().size() >= 2, qPrintable(t.name()));
        for (const TaskVariant &v : t.variants()) {
            QVERIFY2(v.source.contains(u"KF_ENTRY"), qPrintable(t.name() + u'/' + v.label));
            QVERIFY(!v.expectedVerdict.isEmpty());
        }
        QVERIFY2(t.warnings().isEmpty(), qPrintable(t.warnings().join(u"; ")));
        const QJsonObject json = t.toJson();
        QCOMPARE(json.value("name"_L1).toString(), t.name());
        QVERIFY(!json.value("inputs"_L1).toArray().isEmpty());
        QVERIFY(!json.value("outputs"_L1).toArray().isEmpty());
    }
    // The PyTorch tasks are listed apart; they load as torch tasks, with reference.py as their reference, and
    // each has its variants (a ModelNew and a .cu at least).
    const QStringList torch = Task::builtinTorchTaskFolders();
    QVERIFY2(torch.size() >= 8, qPrintable(u"%1 built-in torch tasks"_s.arg(torch.size())));
    for (const QString &folder : torch) {
        QVERIFY2(!folders.contains(folder), qPrintable(folder));
        QVERIFY2(QFileInfo::exists(folder + u"/reference.py"_s), qPrintable(folder));
        const TaskLoadResult r = Task::load(folder);
        QVERIFY2(r.ok(), qPrintable(folder + u": "_s + r.error.message()));
        QVERIFY(r.task->isTorch());
        QVERIFY2(r.task->variants().size() >= 2, qPrintable(folder));
    }
}

void TestTask::builtinTasksIncludeTheFamousOnes()
{
    const QString root = Task::builtinTasksDir();
    const TaskLoadResult diag = Task::load(root + u"/diag_matmul"_s);
    QVERIFY2(diag.ok(), qPrintable(diag.error.message()));
    const auto good = diag.task->variant(u"good"_s);
    QVERIFY(good.has_value());
    QCOMPARE(good->minSpeedup.value_or(0), 30.0);
    QVERIFY(diag.task->nvccFlags().contains(u"-lcublas"_s));

    const TaskLoadResult conv = Task::load(root + u"/conv3d_groupnorm_min_clamp"_s);
    QVERIFY2(conv.ok(), qPrintable(conv.error.message()));
    QVERIFY(conv.task->isDegenerate());
}

void TestTask::loadsAFolder()
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(u"scale"_s);
    QVERIFY(writeFile(folder + u"/task.json"_s, kGoodJson));
    QVERIFY(writeFile(folder + u"/reference.cu"_s, "// reference\n"));
    QVERIFY(writeFile(folder + u"/variants/fast.cu"_s, "// fast\n"));
    const TaskLoadResult r = Task::load(folder);
    QVERIFY2(r.ok(), qPrintable(r.error.message()));
    const Task t = *r.task;
    QCOMPARE(t.name(), u"scale"_s);
    QCOMPARE(t.title(), u"x * 2"_s);
    QCOMPARE(QDir(t.folder()).canonicalPath(), QDir(folder).canonicalPath());
    QCOMPARE(t.referenceSource(), u"// reference\n"_s);
    QCOMPARE(t.timeoutS(), 12.0);
    QCOMPARE(t.nvccFlags(), QStringList{u"-DTASK_FLAG"_s});
    const auto v = t.variant(u"fast"_s);
    QVERIFY(v);
    QCOMPARE(v->source, u"// fast\n"_s);
    QCOMPARE(v->file, u"variants/fast.cu"_s);
    QCOMPARE(v->expectedVerdict, u"correct"_s);
    QCOMPARE(v->minSpeedup.value_or(0), 1.5);
    QCOMPARE(t.flagsFor(&*v), (QStringList{u"-DTASK_FLAG"_s, u"--use_fast_math"_s}));
    QVERIFY(!t.variant(u"nope"_s));
    // Copies share the parsed spec.
    const Task copy = t;
    QCOMPARE(&copy.spec(), &t.spec());
    QVariant var = QVariant::fromValue(t);
    QCOMPARE(var.value<Task>().name(), u"scale"_s);
}

void TestTask::brokenFolders_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("withReference");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("problem"); // a part of the problem's text

    const QByteArray good(kGoodJson);
    QTest::newRow("bad JSON") << QByteArray(R"({"name": "scale", "inputs": [)") << true << u"scale/task.json"_s
                              << QString() << u"invalid JSON at line 1"_s;
    QByteArray noOutputs = good;
    noOutputs.replace(R"("outputs": [{"name": "Y", "dtype": "f32", "shape": ["N"]}],)", "");
    QTest::newRow("missing field") << noOutputs << true << u"scale/task.json"_s << u"outputs"_s << u"missing"_s;
    QByteArray badDtype = good;
    badDtype.replace(R"("name": "X", "dtype": "f32")", R"("name": "X", "dtype": "f33")");
    QTest::newRow("bad dtype") << badDtype << true << u"scale/task.json"_s << u"inputs[0].dtype"_s << u"f33"_s;
    QByteArray badShape = good;
    badShape.replace(R"("shape": ["N"]}],)", R"("shape": ["K"]}],)");
    QTest::newRow("unknown shape symbol") << badShape << true << u"scale/task.json"_s << u"outputs[0].shape[0]"_s << u"K"_s;
    QByteArray badType = good;
    badType.replace(R"("timeout_s": 12)", R"("timeout_s": "soon")");
    QTest::newRow("wrong type") << badType << true << u"scale/task.json"_s << u"timeout_s"_s << u"number"_s;
    QTest::newRow("no reference.cu") << good << false << u"scale/reference.cu"_s << QString() << u"cannot read"_s;
}

void TestTask::brokenFolders()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, withReference);
    QFETCH(QString, file);
    QFETCH(QString, field);
    QFETCH(QString, problem);
    QTemporaryDir dir;
    const QString folder = dir.filePath(u"scale"_s);
    QVERIFY(writeFile(folder + u"/task.json"_s, json));
    QVERIFY(writeFile(folder + u"/variants/fast.cu"_s, "// fast\n"));
    if (withReference)
        QVERIFY(writeFile(folder + u"/reference.cu"_s, "// reference\n"));
    const TaskLoadResult r = Task::load(folder);
    QVERIFY(!r.ok());
    QCOMPARE(r.error.file, file);
    QCOMPARE(r.error.field, field);
    QVERIFY2(r.error.problem.contains(problem, Qt::CaseInsensitive), qPrintable(r.error.problem));
    const QString message = r.error.message();
    QVERIFY(message.startsWith(file));
    if (!field.isEmpty())
        QVERIFY2(message.contains(u'\'' + field + u'\''), qPrintable(message));
    QVERIFY(message.contains(r.error.problem));
}

void TestTask::notAFolder()
{
    const TaskLoadResult r = Task::load(u"/no/such/task/folder"_s);
    QVERIFY(!r.ok());
    QVERIFY(r.error.message().contains(u"/no/such/task/folder"));
    QVERIFY(r.error.message().contains(u"task.json"));
}

void TestTask::unknownKeysAreWarnings()
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(u"scale"_s);
    QByteArray json(kGoodJson);
    json.replace(R"("title": "x * 2",)", R"("title": "x * 2", "colour": "blue",)");
    QVERIFY(writeFile(folder + u"/task.json"_s, json));
    QVERIFY(writeFile(folder + u"/reference.cu"_s, "// reference\n"));
    QVERIFY(writeFile(folder + u"/variants/fast.cu"_s, "// fast\n"));
    const TaskLoadResult r = Task::load(folder);
    QVERIFY(r.ok());
    QCOMPARE(r.task->warnings().size(), 1);
    QVERIFY(r.task->warnings().at(0).contains(u"colour"));
}

void TestTask::loadsATorchTask()
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(u"linear_scale"_s);
    QVERIFY(writeFile(folder + u"/task.json"_s, kTorchJson));
    QVERIFY(writeFile(folder + u"/reference.py"_s, "import torch\n\n\nclass Model(torch.nn.Module):\n    pass\n"));
    QVERIFY(writeFile(folder + u"/variants/fused.py"_s, "import torch\n\n\nclass ModelNew(torch.nn.Module):\n    pass\n"));
    const TaskLoadResult r = Task::load(folder);
    QVERIFY2(r.ok(), qPrintable(r.error.message()));
    const Task &t = *r.task;
    QVERIFY(t.isTorch());
    QCOMPARE(t.name(), u"linear_scale"_s);
    QCOMPARE(t.title(), u"Linear then scale"_s);
    QCOMPARE(t.referenceFileName(), u"reference.py"_s);
    QVERIFY(t.referenceSource().contains(u"class Model("_s));
    QCOMPARE(t.timeoutS(), 30.0);
    QCOMPARE(t.variants().size(), 1);
    QCOMPARE(t.variants().at(0).label, u"fused"_s);
    QVERIFY(t.variants().at(0).source.contains(u"class ModelNew"_s));
    // What the worker judges: task.json as written, nothing dropped (a CUDA TaskSpec has no scalars).
    const QJsonObject json = t.toJson();
    QCOMPARE(json.value(u"kind"_s).toString(), u"torch"_s);
    QCOMPARE(json.value(u"inputs"_s).toArray().at(1).toObject().value(u"value"_s).toDouble(), 0.5);
    QCOMPARE(json.value(u"parameters"_s).toArray().size(), 2);

    // The session's copy: the same from files in memory.
    QMap<QString, QByteArray> files{{u"task.json"_s, kTorchJson},
                                    {u"reference.py"_s, "class Model: pass\n"},
                                    {u"variants/fused.py"_s, "class ModelNew: pass\n"}};
    const TaskLoadResult copy = Task::fromFiles(u"linear_scale"_s, files);
    QVERIFY2(copy.ok(), qPrintable(copy.error.message()));
    QVERIFY(copy.task->isTorch());
    QCOMPARE(copy.task->referenceSource(), u"class Model: pass\n"_s);
    files.remove(u"reference.py"_s);
    const TaskLoadResult missing = Task::fromFiles(u"linear_scale"_s, files);
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error.file, u"linear_scale/reference.py"_s);
    QJsonObject noOutputs = QJsonDocument::fromJson(kTorchJson).object();
    noOutputs.remove(u"outputs"_s);
    files.insert(u"reference.py"_s, "class Model: pass\n");
    files.insert(u"task.json"_s, QJsonDocument(noOutputs).toJson());
    const TaskLoadResult broken = Task::fromFiles(u"linear_scale"_s, files);
    QVERIFY(!broken.ok());
    QCOMPARE(broken.error.field, u"outputs"_s);
}

void TestTask::sourceLanguages()
{
    QCOMPARE(sourceLanguage(u"#include \"kforge/kernel.h\"\nKF_ENTRY(i, ni, o, no, p, s) {}\n"_s), SourceLanguage::Cuda);
    QCOMPARE(sourceLanguage(u"import torch\nclass ModelNew(torch.nn.Module): pass\n"_s), SourceLanguage::Python);
    QCOMPARE(sourceLanguage(u"from torch.utils.cpp_extension import load_inline\nsrc = '__global__ void k() {}'\n"_s),
             SourceLanguage::Python);
    QCOMPARE(sourceLanguage(u"// import torch in a comment is still CUDA\n__global__ void k() {}\n"_s),
             SourceLanguage::Cuda);
    QCOMPARE(sourceExtension(SourceLanguage::Python), u"py"_s);
    QCOMPARE(fenceLanguage(SourceLanguage::Cuda), u"cuda"_s);
}

QTEST_GUILESS_MAIN(TestTask)
#include "tst_task.moc"
