#include "app/gui/diffdock.h"

#include "core/session/sessionstore.h"
#include "views/diff/diffview.h"
#include "views/editor/kerneleditor.h"

#include <Qsci/qsciscintilla.h>

#include <QDockWidget>
#include <QMainWindow>
#include <QTimer>

namespace kforge {

DiffDock::DiffDock(QMainWindow *window, QDockWidget *dock, DiffView *diff, KernelEditor *editor, SessionStore *store)
    : QObject(window)
    , m_window(window)
    , m_dock(dock)
    , m_diff(diff)
    , m_editor(editor)
    , m_store(store)
{
    // Re-diff shortly after typing stops, not on every key.
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(300);
    connect(m_timer, &QTimer::timeout, this, &DiffDock::updateTab);
    connect(m_editor, &KernelEditor::textEdited, m_timer, qOverload<>(&QTimer::start));
    connect(m_editor, &KernelEditor::currentChanged, this, [this] {
        if (m_dock->isVisible())
            updateTab();
    });
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            updateTab();
    });
}

void DiffDock::raise()
{
    // A dock behind another tab counts as visible; what the user sees of it tells.
    const bool wasVisible = !m_dock->visibleRegion().isEmpty();
    m_dock->show();
    m_dock->raise();
    // Two panes of code need room; the log's height is too little.
    if (!wasVisible && !m_dock->isFloating())
        m_window->resizeDocks({m_dock}, {m_window->height() * 2 / 5}, Qt::Vertical);
}

void DiffDock::showTab()
{
    m_showsPair = false;
    raise();
    updateTab();
}

void DiffDock::showPair(qint64 a, qint64 b)
{
    raise();
    setPair(a, b);
}

void DiffDock::updateTab()
{
    if (m_showsPair || !m_dock->isVisible() || m_editor->count() == 0)
        return;
    // The first tab is the reference; compare the current tab with it (or with the next tab while the
    // reference itself is current).
    int other = m_editor->currentIndex();
    if (other <= 0)
        other = m_editor->count() > 1 ? 1 : 0;
    m_diff->setSources(m_editor->title(0), m_editor->editor(0)->text(), m_editor->title(other),
                       m_editor->editor(other)->text());
}

void DiffDock::setPair(qint64 a, qint64 b)
{
    const Population &population = m_store->population();
    const Variant *va = population.find(a);
    const Variant *vb = population.find(b);
    if (!va || !vb)
        return;
    // A on the left and B on the right, as Compare shows the pair (A is the faster one unless the user swapped
    // them there), so both panels read the same way round.
    const auto title = [](const QString &side, const Variant *v) {
        QString t = tr("#%1 %2").arg(v->id).arg(v->label);
        if (v->eval.speedup)
            t += tr(" (%1x)").arg(*v->eval.speedup, 0, 'f', 2);
        return tr("%1: %2").arg(side, t.simplified());
    };
    m_showsPair = true;
    m_diff->setSources(title(tr("A"), va), m_store->variants().source(va->id), title(tr("B"), vb),
                       m_store->variants().source(vb->id));
}

} // namespace kforge
