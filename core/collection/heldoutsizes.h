#pragma once
// Held-out sizes of a KernelBench problem: the problem's text with its size constants changed, so that a pair can
// be verified again at shapes it was not published at (a candidate that hard-codes its shape, class 15 of the
// hack catalogue, fails there). The constants changed are the imported task's int params of at least 8 that size
// a forward input; each gets an odd value (never a multiple of a tile) near 3/4 of it (held-out size 1) and near
// 1/2 (held-out size 2), written over its `NAME = 16` (or `a, b = 32, 32`) line. The changed text is imported again
// like any problem, so the task's shapes, parameters and formulas follow.
#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace kforge {

struct SizeChange {
    QString name;
    qint64 from = 0;
    qint64 to = 0;
};

struct HeldOutProblem {
    int index = 0; // 1 or 2
    QString source;
    QList<SizeChange> changes;
    QString describe() const; // "batch_size 16→13, dim 4096→3073"
};

class HeldOutSizes
{
    Q_DECLARE_TR_FUNCTIONS(kforge::HeldOutSizes)

public:
    static constexpr int kCount = 2;
    // Both held-out problems of `source` whose import is `task` (task.json); empty with `why` when no size constant
    // can be changed.
    static QList<HeldOutProblem> make(const QString &source, const QJsonObject &task, QString *why);
    // The value a constant of `value` takes at held-out size `index`: odd, below it, at least 3.
    static qint64 heldOutValue(qint64 value, int index);
};

} // namespace kforge
