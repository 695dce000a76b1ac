#include "core/collection/heldoutsizes.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// The identifiers the forward inputs' shapes name (task.json "inputs"[].shape: numbers or expressions).
QSet<QString> shapeNames(const QJsonObject &task)
{
    static const QRegularExpression identifier(u"[A-Za-z_][A-Za-z0-9_]*"_s);
    QSet<QString> names;
    for (const QJsonValue &input : task.value(u"inputs"_s).toArray())
        for (const QJsonValue &dim : input.toObject().value(u"shape"_s).toArray())
            for (auto it = identifier.globalMatch(dim.toString()); it.hasNext();)
                names.insert(it.next().captured());
    return names;
}

// `source` with the module-level assignment of `name` (alone, or in a tuple of literals) set to `to`, when its
// value there is `from`; false when no such line exists.
bool rewriteConstant(QString &source, const QString &name, qint64 from, qint64 to)
{
    static const QRegularExpression assignment(
        u"^([A-Za-z_][A-Za-z0-9_]*(?:[ \\t]*,[ \\t]*[A-Za-z_][A-Za-z0-9_]*)*)[ \\t]*=[ \\t]*([^#\\n]*?)[ \\t]*(#[^\\n]*)?$"_s,
        QRegularExpression::MultilineOption);
    for (auto it = assignment.globalMatch(source); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QStringList names = m.captured(1).split(u',');
        QStringList values = m.captured(2).split(u',');
        for (QString &n : names)
            n = n.trimmed();
        for (QString &v : values)
            v = v.trimmed();
        const qsizetype at = names.indexOf(name);
        if (at < 0 || names.size() != values.size() || values.at(at) != QString::number(from))
            continue;
        values[at] = QString::number(to);
        QString line = names.join(u", "_s) + u" = "_s + values.join(u", "_s);
        if (m.hasCaptured(3))
            line += u"  "_s + m.captured(3);
        source.replace(m.capturedStart(), m.capturedLength(), line);
        return true;
    }
    return false;
}

} // namespace

QString HeldOutProblem::describe() const
{
    QStringList parts;
    for (const SizeChange &c : changes)
        parts << u"%1 %2→%3"_s.arg(c.name).arg(c.from).arg(c.to);
    return parts.join(u", "_s);
}

qint64 HeldOutSizes::heldOutValue(qint64 value, int index)
{
    const qint64 scaled = index == 1 ? value * 3 / 4 : value / 2;
    return std::max<qint64>(3, scaled | 1);
}

QList<HeldOutProblem> HeldOutSizes::make(const QString &source, const QJsonObject &task, QString *why)
{
    const QSet<QString> sized = shapeNames(task);
    const QJsonObject params = task.value(u"params"_s).toObject();
    QList<HeldOutProblem> out;
    for (int index = 1; index <= kCount; ++index) {
        HeldOutProblem p;
        p.index = index;
        p.source = source;
        for (auto it = params.begin(); it != params.end(); ++it) {
            const double v = it.value().toDouble();
            if (!sized.contains(it.key()) || v != std::floor(v) || v < 8)
                continue;
            const qint64 from = qint64(v), to = heldOutValue(from, index);
            if (rewriteConstant(p.source, it.key(), from, to))
                p.changes.append({it.key(), from, to});
        }
        if (p.changes.isEmpty()) {
            *why = tr("no size constant to change (an int of at least 8 that sizes an input, assigned as a literal)");
            return {};
        }
        out << p;
    }
    return out;
}

} // namespace kforge
