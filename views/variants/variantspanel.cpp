#include "views/variants/variantspanel.h"
#include "core/session/sessionstore.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsfiltermodel.h"
#include "views/variants/variantsmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace kforge {

namespace {

// Widths from the header texts and typical contents, never from measuring 10,000 rows.
void sizeVariantColumns(QTableView *view, const VariantsModel *model)
{
    QHeaderView *h = view->horizontalHeader();
    const int em = view->fontMetrics().horizontalAdvance(QLatin1Char('M'));
    // Time holds a number and its unit ("0.0414 ms"). Status shows every state whole ("not measured", in the
    // language of the day, with the item's text margins); a failure's reason is elided, its whole text in the tool tip.
    const int widths[VariantsModel::ColumnCount] = {4, 7, 3, 7, 9, 5, 8, 5, 7, 4, 7, 5, 8};
    const int margins = 2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
    int statusText = 0;
    for (VariantStatus status : {VariantStatus::Generated, VariantStatus::Compiling, VariantStatus::Verifying,
                                 VariantStatus::Timing, VariantStatus::Profiling, VariantStatus::Done}) {
        Variant v;
        v.status = status;
        statusText = std::max(statusText, view->fontMetrics().horizontalAdvance(VariantsModel::statusText(v)) + margins);
    }
    for (int c = 0; c < VariantsModel::ColumnCount; ++c) {
        const int header = h->fontMetrics().horizontalAdvance(model->headerData(c, Qt::Horizontal).toString()) + 2 * em;
        h->resizeSection(c, std::max({widths[c] * em, header, c == VariantsModel::Status ? statusText : 0}));
    }
}

} // namespace

VariantsPanel::VariantsPanel(SessionStore *store, VariantSelection *selection, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_selection(selection)
    , m_model(new VariantsModel(this))
    , m_filter(new VariantsFilterModel(this))
{
    m_filter->setSourceModel(m_model);

    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Filter by id, label, tag or status"));
    m_search->setClearButtonEnabled(true);
    m_status = new QComboBox(this);
    m_status->addItem(tr("All"), int(VariantsFilterModel::StatusFilter::All));
    m_status->addItem(tr("In flight"), int(VariantsFilterModel::StatusFilter::InFlight));
    m_status->addItem(tr("Done"), int(VariantsFilterModel::StatusFilter::Done));
    m_status->addItem(tr("Failed"), int(VariantsFilterModel::StatusFilter::Failed));
    m_status->addItem(tr("Held for review"), int(VariantsFilterModel::StatusFilter::Suspicious));
    m_status->addItem(tr("Pinned"), int(VariantsFilterModel::StatusFilter::Pinned));
    m_status->addItem(tr("Excluded"), int(VariantsFilterModel::StatusFilter::Excluded));
    m_status->setToolTip(tr("Show only variants in this state"));
    m_correctOnly = new QCheckBox(tr("Correct only"), this);
    m_count = new QLabel(this);
    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_search, 1);
    top->addWidget(m_status);
    top->addWidget(m_correctOnly);
    top->addWidget(m_count);

    m_lineageBar = new QWidget(this);
    m_lineageText = new QLabel(m_lineageBar);
    auto *clear = new QToolButton(m_lineageBar);
    clear->setText(tr("Show all"));
    auto *lineageLayout = new QHBoxLayout(m_lineageBar);
    lineageLayout->setContentsMargins(0, 0, 0, 0);
    lineageLayout->addWidget(m_lineageText, 1);
    lineageLayout->addWidget(clear);
    m_lineageBar->hide();
    connect(clear, &QToolButton::clicked, this, &VariantsPanel::clearLineage);

    m_view = new QTableView(this);
    m_view->setModel(m_filter);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(VariantsModel::Id, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    // Fixed row heights: a 10,000-row table must never measure its contents.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->verticalHeader()->hide();
    QHeaderView *h = m_view->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setStretchLastSection(true);
    sizeVariantColumns(m_view, m_model);

    m_empty = new QLabel(tr("No session is open.\nOpen a task folder or a session file to see its variants."), this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    auto *tablePage = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tablePage);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addLayout(top);
    tableLayout->addWidget(m_lineageBar);
    tableLayout->addWidget(m_view, 1);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(tablePage);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_stack);

    m_countTimer = new QTimer(this);
    m_countTimer->setSingleShot(true);
    m_countTimer->setInterval(100);
    connect(m_countTimer, &QTimer::timeout, this, &VariantsPanel::updateCount);

    connect(m_search, &QLineEdit::textChanged, m_filter, &VariantsFilterModel::setText);
    connect(m_status, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setStatusFilter(VariantsFilterModel::StatusFilter(m_status->currentData().toInt())); });
    connect(m_correctOnly, &QCheckBox::toggled, m_filter, &VariantsFilterModel::setCorrectOnly);
    connect(m_view, &QTableView::customContextMenuRequested, this, [this](const QPoint &pos) {
        QMenu *menu = createContextMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_view->viewport()->mapToGlobal(pos));
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &VariantsPanel::onTableSelectionChanged);
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex &i) {
        if (m_selection)
            m_selection->setCurrent(i.data(VariantsModel::IdRole).toLongLong());
    });
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_filter, signal, this, &VariantsPanel::scheduleCount);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &VariantsPanel::updateState);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &VariantsPanel::scheduleCount);
    if (m_selection)
        connect(m_selection, &VariantSelection::currentChanged, this, &VariantsPanel::onCurrentChanged);
    if (m_store)
        connect(m_store, &SessionStore::errorOccurred, this, &VariantsPanel::errorOccurred);

    m_model->setStore(store);
    updateState();
}

VariantsPanel::~VariantsPanel() = default;

void VariantsPanel::updateState()
{
    const bool open = m_store && m_store->isOpen();
    m_stack->setCurrentIndex(open ? 1 : 0);
    if (!open)
        m_filter->clearLineage();
    m_lineageBar->setVisible(m_filter->hasLineage());
    updateCount();
}

void VariantsPanel::scheduleCount()
{
    if (!m_countTimer->isActive())
        m_countTimer->start();
}

void VariantsPanel::updateCount()
{
    const int shown = m_filter->rowCount();
    const int all = m_model->rowCount();
    m_count->setText(shown == all ? tr("%n variant(s)", nullptr, all) : tr("%1 of %2").arg(shown).arg(all));
}

QList<qint64> VariantsPanel::selectedIds() const
{
    QList<qint64> ids;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows())
        ids << i.data(VariantsModel::IdRole).toLongLong();
    return ids;
}

void VariantsPanel::onTableSelectionChanged()
{
    if (m_syncing || !m_selection)
        return;
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    const qint64 currentId = current.isValid() ? current.data(VariantsModel::IdRole).toLongLong() : 0;
    m_syncing = true;
    m_selection->setSelected(selectedIds(), currentId);
    m_syncing = false;
}

void VariantsPanel::onCurrentChanged(qint64 id)
{
    if (m_syncing)
        return;
    const QList<qint64> wanted = m_selection ? m_selection->selected() : QList<qint64>{};
    if (selectedIds() == wanted)
        return;
    m_syncing = true;
    QItemSelection sel;
    QModelIndex currentIndex;
    for (qint64 v : wanted) {
        const int row = m_model->rowOf(v);
        if (row < 0)
            continue;
        const QModelIndex p = m_filter->mapFromSource(m_model->index(row, 0));
        if (!p.isValid())
            continue; // filtered out: the filters are the user's, leave them
        sel.select(p, p.siblingAtColumn(VariantsModel::ColumnCount - 1));
        if (v == id)
            currentIndex = p;
    }
    m_view->selectionModel()->select(sel, QItemSelectionModel::ClearAndSelect);
    if (currentIndex.isValid()) {
        m_view->selectionModel()->setCurrentIndex(currentIndex, QItemSelectionModel::NoUpdate);
        m_view->scrollTo(currentIndex);
    }
    m_syncing = false;
}

QMenu *VariantsPanel::createContextMenu(QWidget *parent)
{
    auto *menu = new QMenu(parent);
    const QList<qint64> ids = selectedIds();
    const Variant *one = ids.size() == 1 && m_store ? m_store->population().find(ids.constFirst()) : nullptr;
    bool anyPinned = false, anyUnpinned = false, anyExcluded = false, anyIncluded = false, anySuspicious = false;
    if (m_store)
        for (qint64 id : ids)
            if (const Variant *v = m_store->population().find(id)) {
                (v->pinned ? anyPinned : anyUnpinned) = true;
                (v->excluded ? anyExcluded : anyIncluded) = true;
                anySuspicious = anySuspicious || (v->suspicious && !v->accepted);
            }

    QAction *compare = menu->addAction(tr("Compare the Two Selected"), this, [this] { compareSelected(); });
    compare->setObjectName(QStringLiteral("compare"));
    compare->setEnabled(ids.size() == 2);
    menu->addSeparator();
    QAction *parents = menu->addAction(tr("Show Parents"), this, [this, id = one ? one->id : 0] { showParents(id); });
    parents->setObjectName(QStringLiteral("parents"));
    parents->setEnabled(one && !one->parentIds.isEmpty());
    QAction *children = menu->addAction(tr("Show Children"), this, [this, id = one ? one->id : 0] { showChildren(id); });
    children->setObjectName(QStringLiteral("children"));
    children->setEnabled(one != nullptr);
    if (m_filter->hasLineage())
        menu->addAction(tr("Show All Variants"), this, &VariantsPanel::clearLineage);
    menu->addSeparator();
    QAction *pin = anyUnpinned ? menu->addAction(tr("Pin as Exemplar"), this, [this] { setPinned(true); })
                               : menu->addAction(tr("Unpin"), this, [this] { setPinned(false); });
    pin->setObjectName(QStringLiteral("pin"));
    pin->setEnabled(anyPinned || anyUnpinned);
    QAction *exclude = anyIncluded ? menu->addAction(tr("Exclude from Exemplars"), this, [this] { setExcluded(true); })
                                   : menu->addAction(tr("Include in Exemplars"), this, [this] { setExcluded(false); });
    exclude->setObjectName(QStringLiteral("exclude"));
    exclude->setEnabled(anyExcluded || anyIncluded);
    QAction *accept = menu->addAction(tr("Accept Held Result"), this, &VariantsPanel::acceptSuspicious);
    accept->setObjectName(QStringLiteral("accept"));
    accept->setEnabled(anySuspicious);
    accept->setToolTip(tr("You checked the result: let the sampler show it to the model"));
    QAction *tag = menu->addAction(tr("Tags…"), this, &VariantsPanel::editTags);
    tag->setObjectName(QStringLiteral("tags"));
    tag->setEnabled(!ids.isEmpty());
    menu->addSeparator();
    QAction *fork = menu->addAction(tr("Fork to Edit"), this,
                                    [this, id = one ? one->id : 0] { Q_EMIT forkRequested(id); });
    fork->setObjectName(QStringLiteral("fork"));
    fork->setEnabled(one != nullptr);
    QAction *profile = menu->addAction(tr("Profile Source Lines"), this,
                                       [this, id = one ? one->id : 0] { Q_EMIT profileRequested(id); });
    profile->setObjectName(QStringLiteral("profileSourceLines"));
    profile->setEnabled(one != nullptr && one->origin != VariantOrigin::Reference);
    profile->setToolTip(tr("Evaluate it again with CUPTI PC sampling: stall reasons per source line"));
    QAction *exportOne = menu->addAction(tr("Export Variant…"), this,
                                         [this, id = one ? one->id : 0] { Q_EMIT exportRequested(id); });
    exportOne->setObjectName(QStringLiteral("export"));
    // Only a measured, correct kernel is worth a project of its own; the dialog says why for anything else.
    exportOne->setEnabled(one && one->origin != VariantOrigin::Reference && one->isCorrect());
    return menu;
}

void VariantsPanel::setPinned(bool pinned)
{
    if (!m_store)
        return;
    for (qint64 id : selectedIds())
        m_store->variants().setPinned(id, pinned);
}

void VariantsPanel::setExcluded(bool excluded)
{
    if (!m_store)
        return;
    for (qint64 id : selectedIds())
        m_store->variants().setExcluded(id, excluded);
}

void VariantsPanel::acceptSuspicious()
{
    if (!m_store)
        return;
    for (qint64 id : selectedIds())
        if (const Variant *v = m_store->population().find(id); v && v->suspicious && !v->accepted)
            m_store->variants().setAccepted(id, true);
}

void VariantsPanel::setTags(const QStringList &tags)
{
    if (!m_store)
        return;
    QStringList clean;
    for (const QString &t : tags)
        if (const QString s = t.trimmed(); !s.isEmpty() && !clean.contains(s))
            clean << s;
    for (qint64 id : selectedIds())
        m_store->variants().setTags(id, clean);
}

void VariantsPanel::editTags()
{
    const QList<qint64> ids = selectedIds();
    if (ids.isEmpty() || !m_store)
        return;
    const Variant *first = m_store->population().find(ids.constFirst());
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("Tags"),
                                               tr("Tags of %n variant(s), separated by commas:", nullptr, int(ids.size())),
                                               QLineEdit::Normal,
                                               first ? first->tags.join(QLatin1String(", ")) : QString(), &ok);
    if (ok)
        setTags(text.split(QLatin1Char(',')));
}

void VariantsPanel::showParents(qint64 variantId)
{
    const Variant *v = m_store ? m_store->population().find(variantId) : nullptr;
    if (!v)
        return;
    QSet<qint64> ids(v->parentIds.cbegin(), v->parentIds.cend());
    ids.insert(variantId);
    m_filter->setLineage(ids, v->parentIds.isEmpty() ? tr("#%1 has no parent").arg(variantId)
                                                     : tr("#%1 and its parents").arg(variantId));
    m_lineageText->setText(m_filter->lineageDescription());
    m_lineageBar->show();
    if (m_selection)
        m_selection->setSelected(v->parentIds, v->parentIds.isEmpty() ? variantId : v->parentIds.constFirst());
    updateCount();
}

void VariantsPanel::showChildren(qint64 variantId)
{
    if (!m_store || !m_store->population().contains(variantId))
        return;
    const QList<qint64> children = m_store->population().children(variantId);
    QSet<qint64> ids(children.cbegin(), children.cend());
    ids.insert(variantId);
    m_filter->setLineage(ids, children.isEmpty()
                                  ? tr("#%1 has no children").arg(variantId)
                                  : tr("#%1 and its %n child(ren)", nullptr, int(children.size())).arg(variantId));
    m_lineageText->setText(m_filter->lineageDescription());
    m_lineageBar->show();
    updateCount();
}

void VariantsPanel::clearLineage()
{
    m_filter->clearLineage();
    m_lineageBar->hide();
    updateCount();
}

bool VariantsPanel::compareSelected()
{
    const QList<qint64> ids = selectedIds();
    if (ids.size() != 2 || !m_store)
        return false;
    qint64 a = ids[0], b = ids[1];
    const Variant *va = m_store->population().find(a);
    const Variant *vb = m_store->population().find(b);
    // A is the one asked about: the faster of the two when both are measured.
    if (va && vb && vb->eval.speedup && (!va->eval.speedup || *vb->eval.speedup > *va->eval.speedup))
        std::swap(a, b);
    if (m_selection)
        m_selection->setComparePair(a, b);
    Q_EMIT compareRequested(a, b);
    return true;
}

} // namespace kforge
