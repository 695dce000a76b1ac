#include "views/task/taskpanel.h"
#include "core/eval/measureformat.h"
#include "core/eval/measurementfigures.h"
#include "core/runtime/task/taskspec.h"
#include "core/session/sessionstore.h"
#include "core/task/task.h"
#include "views/task/taskfloors.h"
#include "views/task/taskinfomodel.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace kforge {

namespace {

QString esc(const std::string &s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString countText(double v)
{
    return QLocale().toString(qint64(std::llround(v)));
}

QString bytes(double v)
{
    return QLocale().formattedDataSize(qint64(std::llround(v)), 1,
                                       QLocale::DataSizeSIFormat); // decimal, like the GB/s it is divided by
}

QString flopRate(double gflops)
{
    return gflops >= 1000 ? TaskPanel::tr("%1 TFLOP/s").arg(formatMeasure(gflops / 1000))
                          : TaskPanel::tr("%1 GFLOP/s").arg(formatMeasure(gflops));
}

// "(N, M) = (4096, 4096)", or "(4096)" when every dimension is a number.
QString shapeText(const runtime::TensorSpec &t)
{
    QStringList written, values;
    bool symbolic = false;
    for (const runtime::ShapeDim &d : t.shape) {
        written << QString::fromStdString(d.text);
        values << QString::number(d.value);
        symbolic = symbolic || !d.literal;
    }
    const QString v = QStringLiteral("(") + values.join(QStringLiteral(", ")) + QStringLiteral(")");
    return (symbolic ? QStringLiteral("(") + written.join(QStringLiteral(", ")) + QStringLiteral(") = ") : QString()) + v;
}

QString initText(const runtime::InitSpec &i)
{
    switch (i.kind) {
    case runtime::InitSpec::Kind::Normal: return TaskPanel::tr("normal, mean %1, std %2").arg(i.a).arg(i.b);
    case runtime::InitSpec::Kind::Uniform: return TaskPanel::tr("uniform in [%1, %2)").arg(i.a).arg(i.b);
    case runtime::InitSpec::Kind::Integers: return TaskPanel::tr("integers in [%1, %2)").arg(i.a).arg(i.b);
    case runtime::InitSpec::Kind::Constant: return TaskPanel::tr("constant %1").arg(i.a);
    }
    return {};
}

QString tableStart(const QStringList &headers)
{
    QString h = QStringLiteral(
        "<table cellspacing=\"0\" cellpadding=\"3\" border=\"1\" style=\"border-collapse: collapse;\"><tr>");
    for (const QString &s : headers)
        h += QStringLiteral("<th align=\"left\">") + s.toHtmlEscaped() + QStringLiteral("</th>");
    return h + QStringLiteral("</tr>");
}

QString row(const QStringList &cells)
{
    QString h = QStringLiteral("<tr>");
    for (const QString &s : cells)
        h += QStringLiteral("<td>") + s + QStringLiteral("</td>");
    return h + QStringLiteral("</tr>");
}

QString heading(const QString &s)
{
    return QStringLiteral("<h4>") + s.toHtmlEscaped() + QStringLiteral("</h4>");
}

} // namespace

TaskPanel::TaskPanel(SessionStore *store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
{
    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_view = new QTextBrowser(this);
    m_view->setObjectName(QStringLiteral("taskText"));
    m_view->setOpenLinks(false);
    m_model = new TaskInfoModel(this);
    m_tree = new QTreeView(this);
    m_tree->setObjectName(QStringLiteral("taskTree"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->header()->setStretchLastSection(true);
    connect(m_model, &QAbstractItemModel::modelReset, m_tree, [this] {
        m_tree->expandAll();
        // Name, dtype and shape as wide as they need, within reason: the details column must stay in view.
        for (int c = 0; c < TaskInfoModel::DetailColumn; ++c) {
            m_tree->resizeColumnToContents(c);
            m_tree->setColumnWidth(c, std::min(m_tree->columnWidth(c), 46 * fontMetrics().averageCharWidth() + 24));
        }
    });
    m_pages = new QTabWidget(this);
    m_pages->setObjectName(QStringLiteral("taskPages"));
    m_pages->setDocumentMode(true);
    m_pages->addTab(m_view, tr("Overview"));
    m_pages->addTab(m_tree, tr("Signature"));
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_pages);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_stack);
    if (m_store) {
        connect(m_store, &SessionStore::opened, this, &TaskPanel::reload);
        connect(m_store, &SessionStore::closed, this, &TaskPanel::reload);
        connect(m_store, &SessionStore::taskChanged, this, &TaskPanel::reload);
        connect(m_store, &SessionStore::evaluationAdded, this, [this] {
            // Only until some peaks are known (a worker's, or the first stored result that has them): one small
            // read per evaluation at most, never a read per evaluation of a long round.
            if (!m_workerPeaks.valid() && !m_storedPeaks.valid()) {
                readStoredPeaks();
                render();
            }
        });
    }
    reload();
}

void TaskPanel::setDevice(const DeviceInfo &device)
{
    if (device.peakCopyGbps <= 0 && device.peakFmaGflops <= 0)
        return;
    m_workerPeaks = Peaks{device.peakCopyGbps, device.peakFmaGflops, device.name, tr("measured by the connected worker")};
    render();
}

void TaskPanel::reload()
{
    m_storedPeaks = {};
    m_storedFrom = 0;
    readStoredPeaks();
    render();
}

void TaskPanel::readStoredPeaks()
{
    if (!m_store || !m_store->isOpen())
        return;
    qint64 latest = 0, variant = 0;
    for (const Variant &v : m_store->population().variants())
        if (v.hasEvaluation() && v.eval.id > latest) {
            latest = v.eval.id;
            variant = v.id;
        }
    if (!latest || latest == m_storedFrom)
        return;
    // One stored result, read once per new evaluation: a small read.
    const std::optional<Evaluation> e = m_store->evaluations().find(latest);
    if (!e)
        return;
    const MeasurementFigures m = e->figures();
    if (!m.peakGbps && !m.peakGflops)
        return;
    m_storedFrom = latest;
    m_storedPeaks = Peaks{m.peakGbps.value_or(0), m.peakGflops.value_or(0), m.deviceName,
                          tr("measured by the worker, stored with the result of #%1").arg(variant)};
}

void TaskPanel::render()
{
    m_problem.clear();
    if (!m_store || !m_store->isOpen()) {
        m_problem = tr("No session is open. Open a task folder or a session to see its task here.");
    } else if (!m_store->task().isValid()) {
        m_problem = tr("The open session holds no task.");
    }
    std::optional<runtime::TaskSpec> spec;
    const QByteArray taskJson = m_problem.isEmpty() ? m_store->task().taskJson.toUtf8() : QByteArray();
    m_model->setTaskJson(taskJson);
    if (m_problem.isEmpty() && m_store->task().isTorch()) {
        renderTorch();
        return;
    }
    if (m_problem.isEmpty()) {
        runtime::TaskSpecResult parsed = runtime::parseTaskSpecText(m_store->task().taskJson.toStdString(), "task.json");
        if (parsed.ok())
            spec = std::move(parsed.spec);
        else
            m_problem =
                tr("The task stored in this session cannot be read: %1").arg(QString::fromStdString(parsed.error.message()));
    }
    if (!spec) {
        m_empty->setText(m_problem);
        m_stack->setCurrentWidget(m_empty);
        m_view->clear();
        return;
    }
    const runtime::TaskSpec &t = *spec;
    QString h;
    h += QStringLiteral("<h3>") + esc(t.title.empty() ? t.name : t.title);
    if (!t.title.empty() && t.title != t.name)
        h += QStringLiteral(" <span style=\"font-weight: normal;\">(") + esc(t.name) + QStringLiteral(")</span>");
    h += QStringLiteral("</h3>");
    h += QStringLiteral("<p>")
         + (t.description.empty() ? tr("The task has no description.").toHtmlEscaped() : esc(t.description))
         + QStringLiteral("</p>");

    h += heading(tr("Parameters"));
    if (t.params.empty()) {
        h += QStringLiteral("<p>") + tr("None.").toHtmlEscaped() + QStringLiteral("</p>");
    } else {
        h += tableStart({tr("Name"), tr("Value")});
        for (const auto &[name, value] : t.params)
            h += row({esc(name), QLocale().toString(value, 'g', 12).toHtmlEscaped()});
        h += QStringLiteral("</table>");
    }

    auto tensors = [&](const QString &title, const std::vector<runtime::TensorSpec> &list, bool inputs) {
        h += heading(title);
        QStringList headers{tr("Name"), tr("dtype"), tr("Shape"), tr("Elements"), tr("Size")};
        if (inputs)
            headers << tr("Initial values");
        h += tableStart(headers);
        for (const runtime::TensorSpec &x : list) {
            QStringList cells{esc(x.name),
                              QString::fromUtf8(dtypeName(x.dtype).data(), qsizetype(dtypeName(x.dtype).size())),
                              shapeText(x).toHtmlEscaped(), countText(double(x.numel())),
                              bytes(double(x.sizeBytes())).toHtmlEscaped()};
            if (inputs)
                cells << initText(x.init).toHtmlEscaped();
            h += row(cells);
        }
        h += QStringLiteral("</table>");
    };
    tensors(tr("Inputs"), t.inputs, true);
    tensors(tr("Outputs"), t.outputs, false);

    h += heading(tr("Tolerance"));
    {
        std::vector<runtime::Dtype> seen;
        for (const runtime::TensorSpec &x : t.outputs)
            if (std::find(seen.begin(), seen.end(), x.dtype) == seen.end())
                seen.push_back(x.dtype);
        h += QStringLiteral("<p>");
        QStringList lines;
        for (runtime::Dtype d : seen) {
            const runtime::Tolerance tol = t.toleranceFor(d);
            const QString name = QString::fromUtf8(dtypeName(d).data(), qsizetype(dtypeName(d).size()));
            QString line = runtime::isFloating(d)
                               ? tr("%1 outputs: |got − expected| ≤ atol + rtol · |expected|, atol %2, rtol %3")
                                     .arg(name, QString::number(tol.atol), QString::number(tol.rtol))
                               : tr("%1 outputs: exact").arg(name);
            line += QLatin1Char(' ')
                    + (t.tolerance.count(d) ? tr("(from task.json)") : tr("(the default for %1)").arg(name));
            lines << line.toHtmlEscaped();
        }
        h += lines.join(QStringLiteral("<br>")) + QStringLiteral("</p>");
    }

    h += heading(tr("Work"));
    const double flops = t.flops.present() ? t.flops.value : 0;
    const double bytesMoved = t.bytes.present() ? t.bytes.value : 0;
    h += tableStart({tr("Quantity"), tr("Formula"), tr("Value")});
    h += row({tr("FLOP").toHtmlEscaped(),
              t.flops.present() ? QStringLiteral("<code>") + esc(t.flops.text) + QStringLiteral("</code>")
                                : tr("not given").toHtmlEscaped(),
              t.flops.present() ? tr("%1 FLOP").arg(countText(flops)).toHtmlEscaped() : QString()});
    h += row({tr("Bytes").toHtmlEscaped(),
              t.bytes.present() ? QStringLiteral("<code>") + esc(t.bytes.text) + QStringLiteral("</code>")
                                : tr("not given").toHtmlEscaped(),
              t.bytes.present() ? tr("%1 bytes (%2)").arg(countText(bytesMoved), bytes(bytesMoved)).toHtmlEscaped()
                                : QString()});
    if (flops > 0 && bytesMoved > 0)
        h += row({tr("Arithmetic intensity").toHtmlEscaped(), tr("FLOP / bytes").toHtmlEscaped(),
                  tr("%1 FLOP/byte").arg(formatMeasure(flops / bytesMoved)).toHtmlEscaped()});
    h += QStringLiteral("</table>");

    h += floorsHtml(t.flops.present(), flops, t.bytes.present(), bytesMoved);

    h += heading(tr("Evaluation"));
    QStringList notes;
    notes << tr("Time limit: %1 s per evaluation.").arg(t.timeoutS);
    if (t.degenerate)
        notes << tr(
            "Marked degenerate: its output does not depend on the inputs, so a kernel that writes constants passes and its speedup says nothing.");
    if (!t.nvccFlags.empty()) {
        QStringList flags;
        for (const std::string &f : t.nvccFlags)
            flags << QString::fromStdString(f);
        notes << tr("nvcc flags: %1").arg(flags.join(QLatin1Char(' ')));
    }
    QStringList escaped;
    for (const QString &n : std::as_const(notes))
        escaped << n.toHtmlEscaped();
    h += QStringLiteral("<p>") + escaped.join(QStringLiteral("<br>")) + QStringLiteral("</p>");

    showHtml(h);
}

void TaskPanel::showHtml(const QString &h)
{
    const int scroll = m_view->verticalScrollBar() ? m_view->verticalScrollBar()->value() : 0;
    m_view->setHtml(h);
    m_view->verticalScrollBar()->setValue(scroll);
    m_stack->setCurrentWidget(m_pages);
}

namespace {
QString derivedText(const TaskSummary &s, const QString &key)
{
    for (const auto &[name, how] : s.derived)
        if (name == key)
            return how;
    return {};
}

// get_init_inputs() as Python would be called with it: "[1024,4096]" is "1024, 4096".
QString constructorArguments(const QString &initInputs)
{
    QStringList arguments;
    for (const QJsonValue &v : QJsonDocument::fromJson(initInputs.toUtf8()).array()) {
        const QByteArray one = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
        arguments << QString::fromUtf8(one.mid(1, one.size() - 2));
    }
    return arguments.join(QStringLiteral(", "));
}

QString paragraph(const QString &text, bool bold = false)
{
    return (bold ? QStringLiteral("<p><b>") : QStringLiteral("<p>")) + text.toHtmlEscaped()
           + (bold ? QStringLiteral("</b></p>") : QStringLiteral("</p>"));
}
} // namespace

// A PyTorch task: the tree (TaskInfoModel) has its signature, tensors and tolerance with how discovery derived them;
// the overview has the description, the params and tensors in tables as a CUDA task's, the work, floors and tolerance.
void TaskPanel::renderTorch()
{
    const std::optional<TaskSummary> &s = m_model->summary();
    if (!s) {
        m_problem = tr("The task stored in this session cannot be read: %1").arg(m_model->problem());
        m_empty->setText(m_problem);
        m_stack->setCurrentWidget(m_empty);
        return;
    }
    QString h = QStringLiteral("<h3>") + s->title.toHtmlEscaped();
    if (s->title != s->name)
        h += QStringLiteral(" <span style=\"font-weight: normal;\">(") + s->name.toHtmlEscaped()
             + QStringLiteral(")</span>");
    h += QStringLiteral("</h3><p>")
         + (s->description.isEmpty() ? tr("The task has no description.") : s->description).toHtmlEscaped()
         + QStringLiteral("</p><p>")
         + tr("A PyTorch task: the reference is the Model of reference.py, a candidate is a ModelNew module or a KForge "
              ".cu whose inputs are the forward's arguments followed by the module's parameters and buffers. "
              "kforge-worker evaluates it. The Signature tab lists the same tensors with how discovery derived "
              "them.")
               .toHtmlEscaped()
         + QStringLiteral("</p>");
    h += heading(tr("Parameters"));
    if (s->params.isEmpty()) {
        h += paragraph(tr("None."));
    } else {
        h += tableStart({tr("Name"), tr("Value")});
        for (const auto &[name, value] : s->params)
            h += row({name.toHtmlEscaped(), QLocale().toString(value, 'g', 12).toHtmlEscaped()});
        h += QStringLiteral("</table>");
    }
    h += torchTensorsHtml(tr("Inputs"), s->inputs, true);
    if (const QString arguments = constructorArguments(s->initInputs); !arguments.isEmpty())
        h += paragraph(tr("The module is built as Model(%1).").arg(arguments));
    if (!s->parameters.isEmpty() || !s->buffers.isEmpty())
        h += torchTensorsHtml(tr("The module's parameters and buffers"), s->parameters + s->buffers, false);
    h += torchTensorsHtml(tr("Outputs"), s->outputs, false);
    h += heading(tr("Work"));
    h += tableStart({tr("Quantity"), tr("Formula"), tr("Value")});
    h += row({tr("FLOP").toHtmlEscaped(), (s->flopsText.isEmpty() ? tr("unknown") : s->flopsText).toHtmlEscaped(),
              s->flops ? tr("%1 FLOP").arg(countText(*s->flops)).toHtmlEscaped() : QString()});
    h += row({tr("Bytes").toHtmlEscaped(), (s->bytesText.isEmpty() ? tr("not given") : s->bytesText).toHtmlEscaped(),
              s->bytes ? tr("%1 bytes (%2)").arg(countText(*s->bytes), bytes(*s->bytes)).toHtmlEscaped() : QString()});
    h += QStringLiteral("</table>");
    h += torchWorkHtml(*s);
    h += floorsHtml(s->flops && *s->flops > 0, s->flops.value_or(0), s->bytes && *s->bytes > 0, s->bytes.value_or(0));
    h += torchToleranceHtml(*s);
    h += heading(tr("Evaluation"));
    QStringList notes{tr("Time limit: %1 s per evaluation.").arg(s->timeoutS)};
    if (s->degenerate.value_or(false))
        notes << tr(
            "Marked degenerate: its output does not depend on the inputs, so a kernel that writes constants passes and its speedup says nothing.");
    QStringList escaped;
    for (const QString &n : std::as_const(notes))
        escaped << n.toHtmlEscaped();
    h += QStringLiteral("<p>") + escaped.join(QStringLiteral("<br>")) + QStringLiteral("</p>");
    showHtml(h);
    m_pages->setCurrentWidget(m_tree);
}

// A torch task's tensors as a CUDA task's overview shows its own: a forward's scalar argument by its value.
QString TaskPanel::torchTensorsHtml(const QString &title, const QList<TaskTensorInfo> &list, bool inputs) const
{
    QString h = heading(title);
    if (list.isEmpty())
        return h + paragraph(tr("None."));
    QStringList headers{tr("Name"), tr("dtype"), tr("Shape"), tr("Elements"), tr("Size")};
    if (inputs)
        headers << tr("Initial values");
    h += tableStart(headers);
    for (const TaskTensorInfo &x : list) {
        const std::optional<qint64> n = x.numel();
        const std::optional<qint64> size = x.bytes();
        QStringList cells{x.name.toHtmlEscaped(), x.dtype.toHtmlEscaped(),
                          (x.isScalar() ? tr("scalar, %1").arg(x.scalarValue) : x.shapeText()).toHtmlEscaped(),
                          n ? countText(double(*n)) : QString(), size ? bytes(double(*size)).toHtmlEscaped() : QString()};
        if (inputs)
            cells << x.init.toHtmlEscaped();
        h += row(cells);
    }
    return h + QStringLiteral("</table>");
}

// How the FLOPs were found and, when they are unknown or zero, what that means for the floors: in the page's text,
// not in a tooltip (the reason is a sentence, and the floors below depend on it).
QString TaskPanel::torchWorkHtml(const TaskSummary &s) const
{
    const QString how = derivedText(s, QStringLiteral("flops"));
    QString h;
    if (!s.flops) {
        h += paragraph(tr("FLOPs unknown. Without a FLOP count the task has no compute floor, so its speed of light is "
                          "the memory floor alone: for a compute-bound problem (a matrix product, a convolution) that "
                          "floor is far too low, %-of-speed-of-light figures read low and a result faster than the true "
                          "limit is not flagged. Write \"flops\" in task.json (a number or an expression over the "
                          "params) to give it one."),
                       true);
    } else if (*s.flops == 0) {
        h += paragraph(tr("No FLOPs counted (no matrix product or convolution): the memory floor alone sets the speed "
                          "of light, as it should for a memory-bound problem."));
    }
    if (!how.isEmpty())
        h += paragraph(tr("How discovery found the FLOPs: %1.").arg(how));
    return h;
}

// The tolerance a candidate is judged with, where it came from, and how it compares with KernelBench's 1e-2.
QString TaskPanel::torchToleranceHtml(const TaskSummary &s) const
{
    QString h = heading(tr("Tolerance"));
    QStringList lines;
    bool stricter = false;
    for (const TaskToleranceInfo &t : s.tolerance) {
        lines << (t.exact ? tr("%1: exact").arg(t.dtype)
                          : tr("%1: atol %2, rtol %3 %4")
                                .arg(t.dtype)
                                .arg(t.atol)
                                .arg(t.rtol)
                                .arg(t.fromTask ? tr("(from task.json)") : tr("(the default for %1)").arg(t.dtype)));
        stricter = stricter || (!t.exact && (t.atol < 1e-2 || t.rtol < 1e-2));
    }
    if (lines.isEmpty())
        lines << tr("No output to compare.");
    QStringList escaped;
    for (const QString &l : std::as_const(lines))
        escaped << l.toHtmlEscaped();
    h += QStringLiteral("<p>") + escaped.join(QStringLiteral("<br>")) + QStringLiteral("</p>");
    if (const QString how = derivedText(s, QStringLiteral("tolerance")); !how.isEmpty())
        h += paragraph(tr("Where it came from: %1.").arg(how));
    if (stricter)
        h += paragraph(tr("Stricter than KernelBench, which checks every problem with atol = rtol = 1e-2: a candidate "
                          "KernelBench accepts can be judged incorrect here. To judge as KernelBench does, set "
                          "\"tolerance\" in task.json, e.g. {\"f32\": {\"atol\": 0.01, \"rtol\": 0.01}}."));
    return h;
}

QString TaskPanel::floorsHtml(bool hasFlops, double flops, bool hasBytes, double bytesMoved) const
{
    QString h = heading(tr("Floors on this GPU"));
    const Peaks &peaks = m_workerPeaks.valid() ? m_workerPeaks : m_storedPeaks;
    if (!hasFlops && !hasBytes) {
        h += QStringLiteral("<p>")
             + tr("The task gives no FLOP or byte formula, so it has no speed-of-light floor.").toHtmlEscaped()
             + QStringLiteral("</p>");
    } else if (!peaks.valid()) {
        h += QStringLiteral("<p>")
             + tr("No device peaks are known yet: the floors need the bandwidth and FLOP rate a worker measures on its "
                  "GPU. Connect a worker (Settings → Workers) or open a session with measured results.")
                   .toHtmlEscaped()
             + QStringLiteral("</p>");
    } else {
        const TaskFloors f = taskFloors(flops, bytesMoved, peaks.gflops, peaks.gbps);
        QStringList measured;
        if (peaks.gbps > 0)
            measured << tr("%1 GB/s copy bandwidth").arg(formatMeasure(peaks.gbps));
        if (peaks.gflops > 0)
            measured << tr("%1 FP32 FMA").arg(flopRate(peaks.gflops));
        h += QStringLiteral("<p>")
             + tr("%1: %2 (%3).")
                   .arg(peaks.device.isEmpty() ? tr("The GPU") : peaks.device, measured.join(QStringLiteral(", ")),
                        peaks.source)
                   .toHtmlEscaped()
             + QStringLiteral("</p>");
        h += tableStart({tr("Floor"), tr("Time"), tr("From")});
        if (f.memoryMs)
            h += row({tr("Memory").toHtmlEscaped(), formatDuration(*f.memoryMs).toHtmlEscaped(),
                      tr("%1 at %2 GB/s").arg(bytes(bytesMoved), formatMeasure(peaks.gbps)).toHtmlEscaped()});
        if (f.computeMs)
            h += row({tr("Compute").toHtmlEscaped(), formatDuration(*f.computeMs).toHtmlEscaped(),
                      tr("%1 FLOP at %2").arg(countText(flops), flopRate(peaks.gflops)).toHtmlEscaped()});
        h += QStringLiteral("</table>");
        if (const auto floor = f.floorMs())
            h += QStringLiteral("<p><b>")
                 + tr("Speed of light: %1, %2-bound. No correct kernel can be faster on this GPU; a result under 90% "
                      "of it is flagged.")
                       .arg(formatDuration(*floor), f.memoryLimited() ? tr("memory") : tr("compute"))
                       .toHtmlEscaped()
                 + QStringLiteral("</b></p>");
    }
    return h;
}

QString TaskPanel::text() const
{
    return m_stack->currentWidget() == m_empty ? m_empty->text() : m_view->toPlainText();
}

} // namespace kforge
