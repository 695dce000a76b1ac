#include "views/editor/kernelinfostrip.h"

#include "views/editor/diagnosticformat.h"
#include "views/editor/editorsetup.h"
#include "views/editor/elidinglabel.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace kforge {

namespace {
// More than this many unplaced diagnostics are summed up in one line (the tool tip lists them all).
constexpr int maxUnmarkedShown = 6;
const char *const severityProperty = "kforgeSeverity";

QLabel *makeLabel(QWidget *parent, const QString &text = {})
{
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

void setTextColor(QLabel *label, const QColor &color)
{
    QPalette pal = label->palette();
    pal.setColor(QPalette::WindowText, color);
    label->setPalette(pal);
}

void clearLayout(QLayout *layout)
{
    while (QLayoutItem *item = layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

bool hasErrors(const QList<Diagnostic> &list)
{
    return std::any_of(list.cbegin(), list.cend(),
                       [](const Diagnostic &d) { return d.severity == Diagnostic::Severity::Error; });
}
} // namespace

KernelInfoStrip::KernelInfoStrip(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("kforgeKernelInfoStrip"));
    // One line whatever the message: a failed variant's status can be thousands of characters, and a label
    // that asks for its whole width raises the main window's minimum width past the screen (issue 14).
    m_status = new ElidingLabel(this);
    m_status->setObjectName(QStringLiteral("kforgeStatus"));
    m_summary = makeLabel(this);
    m_summary->setObjectName(QStringLiteral("kforgeSummary"));
    QFont bold = m_summary->font();
    bold.setBold(true);
    m_summary->setFont(bold);
    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_status, 1);
    top->addWidget(m_summary);

    m_message = makeLabel(this);
    m_message->setObjectName(QStringLiteral("kforgeMessage"));
    m_message->setWordWrap(true);
    m_message->hide();

    m_unmarkedBox = new QWidget(this);
    m_unmarkedLayout = new QVBoxLayout(m_unmarkedBox);
    m_unmarkedLayout->setContentsMargins(0, 0, 0, 0);
    m_unmarkedLayout->setSpacing(1);
    m_unmarkedBox->hide();

    m_resourcesBox = new QWidget(this);
    m_resourcesBox->setObjectName(QStringLiteral("kforgeResources"));
    m_grid = new QGridLayout(m_resourcesBox);
    m_grid->setContentsMargins(0, 2, 0, 0);
    m_grid->setHorizontalSpacing(16);
    m_grid->setVerticalSpacing(1);
    m_resourcesBox->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 3, 8, 4);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_message);
    layout->addWidget(m_unmarkedBox);
    layout->addWidget(m_resourcesBox);
    setDarkTheme(false);
    updateVisibility();
}

void KernelInfoStrip::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setToolTip(text);
    updateVisibility();
}

void KernelInfoStrip::setDiagnostics(const QList<Diagnostic> &all, const QList<Diagnostic> &unmarked)
{
    m_all = all;
    m_unmarked = unmarked;
    m_summary->setText(DiagnosticFormat::summary(all));
    clearMessage();
    rebuildUnmarked();
    recolor();
    updateVisibility();
}

void KernelInfoStrip::showMessage(const Diagnostic &d)
{
    m_shown = d;
    m_hasMessage = true;
    m_message->setText(DiagnosticFormat::withLocation(d));
    m_message->show();
    recolor();
    updateVisibility();
}

void KernelInfoStrip::clearMessage()
{
    m_hasMessage = false;
    m_message->clear();
    m_message->hide();
    updateVisibility();
}

void KernelInfoStrip::setResources(const QList<KernelResources> &resources)
{
    m_resources = resources;
    rebuildResources();
    updateVisibility();
}

void KernelInfoStrip::setDarkTheme(bool dark)
{
    m_dark = dark;
    EditorSetup::applyPanelColors(this, dark, false);
    rebuildResources();
    recolor();
}

QString KernelInfoStrip::statusText() const
{
    return m_status->text();
}

QString KernelInfoStrip::summaryText() const
{
    return m_summary->text();
}

QString KernelInfoStrip::messageText() const
{
    return m_hasMessage ? m_message->text() : QString();
}

QString KernelInfoStrip::unmarkedText() const
{
    QStringList lines;
    for (const Diagnostic &d : m_unmarked)
        lines << DiagnosticFormat::withLocation(d);
    return lines.join(u'\n');
}

QString KernelInfoStrip::resourcesText() const
{
    QStringList rows;
    for (int r = 0; r < m_grid->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m_grid->columnCount(); ++c)
            if (QLayoutItem *item = m_grid->itemAtPosition(r, c))
                if (auto *label = qobject_cast<QLabel *>(item->widget()))
                    cells << label->text();
        if (!cells.isEmpty())
            rows << cells.join(u"  "_s);
    }
    return rows.join(u'\n');
}

bool KernelInfoStrip::hasContent() const
{
    return !m_status->text().isEmpty() || !m_summary->text().isEmpty() || m_hasMessage || !m_unmarked.isEmpty()
           || !m_resources.isEmpty();
}

void KernelInfoStrip::rebuildUnmarked()
{
    clearLayout(m_unmarkedLayout);
    const int shown = std::min<int>(maxUnmarkedShown, int(m_unmarked.size()));
    for (int i = 0; i < shown; ++i) {
        const Diagnostic &d = m_unmarked.at(i);
        QLabel *label = makeLabel(m_unmarkedBox, DiagnosticFormat::withLocation(d));
        label->setWordWrap(true);
        label->setProperty(severityProperty, int(d.severity));
        m_unmarkedLayout->addWidget(label);
    }
    if (m_unmarked.size() > shown) {
        QLabel *more = makeLabel(m_unmarkedBox, tr("… and %n more", nullptr, int(m_unmarked.size()) - shown));
        more->setToolTip(unmarkedText());
        m_unmarkedLayout->addWidget(more);
    }
    m_unmarkedBox->setVisible(!m_unmarked.isEmpty());
}

void KernelInfoStrip::rebuildResources()
{
    clearLayout(m_grid);
    m_resourcesBox->setVisible(!m_resources.isEmpty());
    if (m_resources.isEmpty())
        return;
    const EditorSetup::PanelColors colors = EditorSetup::panelColors(m_dark);
    const QStringList headers = {tr("Kernel"), tr("Registers"), tr("Shared memory"), tr("Spills (stores / loads)"),
                                 tr("Stack")};
    for (int c = 0; c < headers.size(); ++c) {
        QLabel *header = makeLabel(m_resourcesBox, headers.at(c));
        setTextColor(header, colors.dim);
        m_grid->addWidget(header, 0, c, c == 0 ? Qt::AlignLeft : Qt::AlignRight);
    }
    m_grid->setColumnStretch(headers.size(), 1);
    int row = 1;
    for (const KernelResources &k : m_resources) {
        QStringList tip = {k.name.isEmpty() ? k.mangledName : k.name};
        if (!k.mangledName.isEmpty() && k.mangledName != tip.first())
            tip << k.mangledName;
        if (!k.arch.isEmpty())
            tip << tr("Architecture: %1").arg(k.arch);
        tip << tr("Barriers: %1").arg(k.barriers)
            << tr("Constant memory: %1").arg(DiagnosticFormat::bytes(k.constantBytes));
        const QString toolTip = tip.join(u'\n');

        auto *name = new ElidingLabel(m_resourcesBox, Qt::ElideMiddle);
        name->setText(DiagnosticFormat::shortKernelName(k));
        QLabel *registers = makeLabel(m_resourcesBox, QString::number(k.registers));
        QLabel *shared = makeLabel(m_resourcesBox, DiagnosticFormat::bytes(k.sharedBytes));
        QLabel *spills = makeLabel(m_resourcesBox);
        if (k.spills()) {
            spills->setText(
                tr("⚠ %1 / %2").arg(DiagnosticFormat::bytes(k.spillStoreBytes), DiagnosticFormat::bytes(k.spillLoadBytes)));
            QFont bold = spills->font();
            bold.setBold(true);
            spills->setFont(bold);
            setTextColor(spills, colors.warning);
            spills->setToolTip(
                tr("Registers spill to local memory: %1 of spill stores and %2 of spill loads. "
                   "Spilling is slow; fewer live values or a higher register limit avoid it.")
                    .arg(DiagnosticFormat::bytes(k.spillStoreBytes), DiagnosticFormat::bytes(k.spillLoadBytes)));
        } else {
            spills->setText(tr("none"));
            setTextColor(spills, colors.dim);
        }
        QLabel *stack = makeLabel(m_resourcesBox, DiagnosticFormat::bytes(k.stackBytes));
        const QList<QLabel *> cells = {name, registers, shared, spills, stack};
        for (int c = 0; c < cells.size(); ++c) {
            if (cells.at(c)->toolTip().isEmpty())
                cells.at(c)->setToolTip(toolTip);
            m_grid->addWidget(cells.at(c), row, c, c == 0 ? Qt::AlignLeft : Qt::AlignRight);
        }
        ++row;
    }
}

void KernelInfoStrip::recolor()
{
    const EditorSetup::PanelColors colors = EditorSetup::panelColors(m_dark);
    auto colorOf = [&colors](Diagnostic::Severity s) {
        switch (s) {
        case Diagnostic::Severity::Error: return colors.error;
        case Diagnostic::Severity::Warning: return colors.warning;
        case Diagnostic::Severity::Note: break;
        }
        return colors.note;
    };
    setTextColor(m_status, colors.text);
    setTextColor(m_summary, hasErrors(m_all) ? colors.error : colors.warning);
    setTextColor(m_message, colorOf(m_shown.severity));
    for (int i = 0; i < m_unmarkedLayout->count(); ++i) {
        auto *label = qobject_cast<QLabel *>(m_unmarkedLayout->itemAt(i)->widget());
        if (!label)
            continue;
        const QVariant severity = label->property(severityProperty);
        setTextColor(label, severity.isValid() ? colorOf(Diagnostic::Severity(severity.toInt())) : colors.dim);
    }
}

void KernelInfoStrip::updateVisibility()
{
    setVisible(hasContent());
}

} // namespace kforge
