#include "views/task/taskinfomodel.h"

#include <QFont>
#include <QLocale>

#include <cmath>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// Section rows have internal id 0; a section's rows carry the section's index + 1.
constexpr quintptr kSectionId = 0;

QString count(double v)
{
    return QLocale().toString(qint64(std::llround(v)));
}

QString size(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

} // namespace

TaskInfoModel::TaskInfoModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void TaskInfoModel::setTaskJson(const QByteArray &taskJson)
{
    // The panel re-renders on every session change; the tree (and what the user expanded) stays for the same task.
    if (taskJson == m_json && (m_summary || !m_problem.isEmpty() || taskJson.isEmpty()))
        return;
    m_json = taskJson;
    beginResetModel();
    m_sections.clear();
    m_problem.clear();
    m_summary.reset();
    if (!taskJson.isEmpty()) {
        QString error;
        m_summary = TaskSummary::fromTaskJson(taskJson, &error);
        if (m_summary)
            build(*m_summary);
        else
            m_problem = error;
    }
    endResetModel();
}

void TaskInfoModel::build(const TaskSummary &s)
{
    const auto tensorRows = [](const QList<TaskTensorInfo> &list) {
        QList<Row> rows;
        for (const TaskTensorInfo &t : list) {
            Row r;
            r.cells[NameColumn] = t.name;
            r.cells[DtypeColumn] = t.dtype;
            if (t.isScalar()) {
                r.cells[ShapeColumn] = tr("scalar");
                r.cells[DetailColumn] = tr("value %1").arg(t.scalarValue);
            } else {
                r.cells[ShapeColumn] = t.shapeText();
                QStringList detail;
                if (const std::optional<qint64> n = t.numel())
                    detail << tr("%1 elements").arg(count(double(*n)));
                if (const std::optional<qint64> b = t.bytes())
                    detail << size(*b);
                if (!t.init.isEmpty())
                    detail << t.init;
                r.cells[DetailColumn] = detail.join(u", "_s);
            }
            r.toolTip = t.written.isEmpty() ? QString() : tr("As written: [%1]").arg(t.written.join(u", "_s));
            rows << r;
        }
        return rows;
    };
    const auto section = [this](const QString &title, const QList<Row> &rows, const QString &detail = {}) {
        m_sections.append(
            {title, detail.isEmpty() ? (rows.isEmpty() ? tr("none") : tr("%n item(s)", nullptr, int(rows.size()))) : detail,
             rows});
    };

    Row signature;
    signature.cells[NameColumn] = s.torch ? tr("Model.forward") : tr("KF_ENTRY");
    signature.cells[DetailColumn] = s.signature;
    QList<Row> signatureRows{signature};
    if (s.torch) {
        Row init;
        init.cells[NameColumn] = tr("Model.__init__");
        init.cells[DetailColumn] = s.initInputs.isEmpty() ? tr("no arguments") : tr("arguments %1").arg(s.initInputs);
        signatureRows << init;
    }
    section(tr("Signature"), signatureRows, s.signature);
    section(tr("Inputs"), tensorRows(s.inputs));
    if (s.torch) {
        section(tr("Parameters"), tensorRows(s.parameters));
        section(tr("Buffers"), tensorRows(s.buffers));
    }
    section(tr("Outputs"), tensorRows(s.outputs));

    QList<Row> tolerance;
    for (const TaskToleranceInfo &t : s.tolerance) {
        Row r;
        r.cells[NameColumn] = t.dtype;
        r.cells[DtypeColumn] = t.dtype;
        r.cells[DetailColumn] = (t.exact ? tr("exact") : tr("atol %1, rtol %2").arg(t.atol).arg(t.rtol)) + u' '
                                + (t.fromTask ? tr("(from task.json)") : tr("(the default for %1)").arg(t.dtype));
        tolerance << r;
    }
    section(tr("Tolerance"), tolerance);

    QList<Row> params;
    for (const auto &[name, value] : s.params) {
        Row r;
        r.cells[NameColumn] = name;
        r.cells[DetailColumn] = QLocale().toString(value, 'g', 12);
        params << r;
    }
    section(tr("Params"), params);

    const auto work = [](const QString &name, const QString &text, const std::optional<double> &value, const QString &unit) {
        Row r;
        r.cells[NameColumn] = name;
        r.cells[DetailColumn] = text.isEmpty() ? tr("not given")
                                : value        ? tr("%1 = %2 %3").arg(text, count(*value), unit)
                                               : text;
        r.toolTip = r.cells[DetailColumn];
        return r;
    };
    section(tr("Work"),
            {work(tr("FLOPs"), s.flopsText, s.flops, tr("FLOP")), work(tr("Bytes"), s.bytesText, s.bytes, tr("bytes"))});

    QList<Row> task;
    const auto fact = [&task](const QString &name, const QString &detail) {
        Row r;
        r.cells[NameColumn] = name;
        r.cells[DetailColumn] = detail;
        task << r;
    };
    fact(tr("Kind"), s.torch ? tr("torch: a PyTorch Model, evaluated by kforge-worker")
                             : tr("cuda: a KForge kernel, evaluated by kforge-worker"));
    fact(tr("Name"), s.name);
    fact(tr("Degenerate"), !s.degenerate   ? tr("not checked")
                           : *s.degenerate ? tr("yes: the output does not depend on the inputs")
                                           : tr("no"));
    fact(tr("Time limit"), tr("%1 s").arg(s.timeoutS));
    section(tr("Task"), task, s.title);

    if (s.torch) {
        QList<Row> derived;
        for (const auto &[key, how] : s.derived) {
            Row r;
            r.cells[NameColumn] = key;
            r.cells[DetailColumn] = how;
            r.toolTip = how;
            derived << r;
        }
        section(tr("Derived by discovery"), derived);
    }
}

QModelIndex TaskInfoModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kSectionId);
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex TaskInfoModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kSectionId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kSectionId);
}

int TaskInfoModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_sections.size());
    if (parent.internalId() != kSectionId || parent.column() != 0)
        return 0;
    return int(m_sections.at(parent.row()).rows.size());
}

int TaskInfoModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant TaskInfoModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == kSectionId) {
        const Section &s = m_sections.at(index.row());
        if (role == Qt::DisplayRole)
            return index.column() == NameColumn ? s.title : index.column() == DetailColumn ? s.detail : QString();
        if (role == Qt::FontRole && index.column() == NameColumn) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    }
    const Row &r = m_sections.at(int(index.internalId() - 1)).rows.at(index.row());
    if (role == Qt::DisplayRole)
        return r.cells[index.column()];
    if (role == Qt::ToolTipRole)
        return r.toolTip.isEmpty() ? r.cells[index.column()] : r.toolTip;
    return {};
}

QVariant TaskInfoModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case DtypeColumn: return tr("dtype");
    case ShapeColumn: return tr("Shape");
    case DetailColumn: return tr("Details");
    default: return {};
    }
}

QString TaskInfoModel::dump() const
{
    QStringList lines;
    for (const Section &s : m_sections) {
        lines << s.title + u" | "_s + s.detail;
        for (const Row &r : s.rows) {
            QStringList cells;
            for (const QString &c : r.cells)
                cells << c;
            lines << u"  "_s + cells.join(u" | "_s);
        }
    }
    return lines.join(u'\n');
}

} // namespace kforge
