// The Task panel's tree (TaskInfoModel) for a CUDA task (the built-in diag_matmul) and a PyTorch task (a task.json
// as kforge-cli import writes it: a scalar argument, a shape expression over two params, a computed input,
// parameters and buffers, a tuple of outputs with an integer one, "derived"), checked as a text dump and under
// QAbstractItemModelTester; an unreadable task.json is a problem, not a tree.
#include "views/task/taskinfomodel.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QLocale>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

const char kTorchTask[] = R"json({
  "kind": "torch", "name": "pool_scale", "title": "Pool then scale", "description": "MaxPool2d(2), times alpha.",
  "reference": "reference.py",
  "params": {"batch": 8, "C": 3, "H": 33},
  "init_inputs": [2],
  "inputs": [
    {"name": "x", "dtype": "f16", "shape": ["batch", "C", "H", 16], "init": {"dist": "uniform", "low": 0, "high": 1}},
    {"name": "mask", "dtype": "bool", "shape": ["batch"], "init": null},
    {"name": "alpha", "scalar": "float", "value": 0.5}
  ],
  "parameters": [{"name": "proj.weight", "dtype": "f16", "shape": ["C", "C"]}],
  "buffers": [{"name": "offset", "dtype": "f32", "shape": [1]}],
  "outputs": [
    {"name": "out0", "dtype": "f16", "shape": ["batch", "C", "floor((H + -1)/2)", 8]
},
    {"name": "out1", "dtype": "i64", "shape": ["batch"]}
  ],
  "tolerance": {"f16": {"atol": 0.01, "rtol": 0.01}, "i64": {"atol": 0, "rtol": 0}},
  "flops": null,
  "bytes": "2*batch*C*H*16 + batch",
  "degenerate": false,
  "timeout_s": 90,
  "derived":
{
    "torch" : "2.4.0", "outputs" : "meta forward at the given sizes", "notes" : [ "a", "b" ]
}
})json";

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestTaskInfoModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); // the dump's number formats
    }

    void torchTask()
    {
        TaskInfoModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTaskJson(QByteArray(kTorchTask));
        QVERIFY2(model.problem().isEmpty(), qPrintable(model.problem()));
        const QString expected = QStringLiteral(
            "Signature | forward(x, mask, alpha) → out0, out1\n"
            "  Model.forward |  |  | forward(x, mask, alpha) → out0, out1\n"
            "  Model.__init__ |  |  | arguments [2]\n"
            "Inputs | 3 item(s)\n"
            "  x | f16 | (batch, C, H, 16) = (8, 3, 33, 16) | 12,672 elements, 25.3 kB, uniform in [0, 1)\n"
            "  mask | bool | (batch) = (8) | 8 elements, 8 bytes, computed by get_inputs()\n"
            "  alpha | float | scalar | value 0.5\n"
            "Parameters | 1 item(s)\n"
            "  proj.weight | f16 | (C, C) = (3, 3) | 9 elements, 18 bytes\n"
            "Buffers | 1 item(s)\n"
            "  offset | f32 | (1) | 1 elements, 4 bytes\n"
            "Outputs | 2 item(s)\n"
            "  out0 | f16 | (batch, C, floor((H + -1)/2), 8) = (8, 3, 16, 8) | 3,072 elements, 6.1 kB\n"
            "  out1 | i64 | (batch) = (8) | 8 elements, 64 bytes\n"
            "Tolerance | 2 item(s)\n"
            "  f16 | f16 |  | atol 0.01, rtol 0.01 (from task.json)\n"
            "  i64 | i64 |  | exact (from task.json)\n"
            "Params | 3 item(s)\n"
            "  batch |  |  | 8\n"
            "  C |  |  | 3\n"
            "  H |  |  | 33\n"
            "Work | 2 item(s)\n"
            "  FLOPs |  |  | not given\n"
            "  Bytes |  |  | 2*batch*C*H*16 + batch = 25,352 bytes\n"
            "Task | Pool then scale\n"
            "  Kind |  |  | torch: a PyTorch Model, evaluated by kforge-worker\n"
            "  Name |  |  | pool_scale\n"
            "  Degenerate |  |  | no\n"
            "  Time limit |  |  | 90 s\n"
            "Derived by discovery | 3 item(s)\n"
            "  torch |  |  | 2.4.0\n"
            "  outputs |  |  | meta forward at the given sizes\n"
            "  notes |  |  | a; b");
        QCOMPARE(model.dump().split(u'\n'), expected.split(u'\n')); // the first line that differs, if one does
        // Sections hold their rows; rows hold none.
        const QModelIndex inputs = model.index(1, 0);
        QCOMPARE(model.rowCount(inputs), 3);
        QCOMPARE(model.rowCount(model.index(0, 0, inputs)), 0);
        QCOMPARE(model.parent(model.index(2, TaskInfoModel::ShapeColumn, inputs)), inputs);
        QCOMPARE(model.index(0, 0, inputs).data(Qt::ToolTipRole).toString(), u"As written: [batch, C, H, 16]"_s);
    }

    void cudaTask()
    {
        const QByteArray json = readFile(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/diag_matmul/task.json"));
        QVERIFY(!json.isEmpty());
        TaskInfoModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTaskJson(json);
        QVERIFY2(model.problem().isEmpty(), qPrintable(model.problem()));
        const QString dump = model.dump();
        // No parameters, buffers or derived sections for a CUDA task; the entry's signature and the rest are.
        QVERIFY(!dump.contains(u"Parameters |"_s) && !dump.contains(u"Buffers |"_s) && !dump.contains(u"Derived"_s));
        QVERIFY2(dump.startsWith(u"Signature | kf_entry(A, B) → C\n"_s), qPrintable(dump));
        QVERIFY2(dump.contains(u"  A | f32 | (N) = (4096) | 4,096 elements, 16.4 kB, normal, mean 0, std 1\n"_s),
                 qPrintable(dump));
        QVERIFY2(dump.contains(u"  C | f32 | (N, M) = (4096, 4096) | 16,777,216 elements, 67.1 MB\n"_s), qPrintable(dump));
        QVERIFY2(dump.contains(u"  f32 | f32 |  | atol 1e-05, rtol 1e-05 (from task.json)\n"_s), qPrintable(dump));
        QVERIFY2(dump.contains(u"  FLOPs |  |  | N*M = 16,777,216 FLOP\n"_s), qPrintable(dump));
        QVERIFY2(dump.contains(u"  Kind |  |  | cuda: a KForge kernel, evaluated by kforge-worker\n"_s), qPrintable(dump));
    }

    void switchingAndBadInput()
    {
        TaskInfoModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTaskJson(QByteArray(kTorchTask));
        QCOMPARE(model.rowCount(), 10);
        model.setTaskJson("{ not json");
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.problem().contains(u"invalid JSON"_s));
        // A CUDA task.json the runtime refuses: its message, with the field.
        model.setTaskJson(R"({"name": "x", "description": "", "inputs": [], "outputs": []})");
        QCOMPARE(model.rowCount(), 0);
        QVERIFY2(model.problem().contains(u"outputs"_s), qPrintable(model.problem()));
        model.setTaskJson({});
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.problem().isEmpty());
    }
};

QTEST_MAIN(TestTaskInfoModel)
#include "tst_taskinfomodel.moc"
