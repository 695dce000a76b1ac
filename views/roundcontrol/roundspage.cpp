#include "views/roundcontrol/roundspage.h"
#include "views/roundcontrol/roundhistorymodel.h"
#include "views/roundcontrol/roundprogressmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace kforge {

namespace {

QTableView *makeTable(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setWordWrap(false);
    // Columns sized to the rows on screen: a round of thousands of answers must not be measured row by row.
    view->horizontalHeader()->setResizeContentsPrecision(0);
    return view;
}

} // namespace

RoundsPage::RoundsPage(RoundHistoryModel *rounds, RoundProgressModel *progress, QWidget *parent)
    : QWidget(parent)
    , m_rounds(rounds)
{
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // wraps to the dock, never widens it
    m_roundsView = makeTable(rounds, this);
    m_roundsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_roundsView->horizontalHeader()->setStretchLastSection(true);
    m_roundsView->setToolTip(tr("Choose a round to see its candidates"));
    m_candidatesView = makeTable(progress, this);
    // Short columns as wide as their contents, so the exemplars fit beside them in the dock; the stage takes the rest.
    m_candidatesView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_candidatesView->horizontalHeader()->setSectionResizeMode(RoundProgressModel::Stage, QHeaderView::Stretch);
    m_candidatesView->setToolTip(tr("Choose a candidate to load the prompt it received; double-click it to read it"));
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_roundsView);
    split->addWidget(m_candidatesView);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(m_roundsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid() && !m_selecting)
                    Q_EMIT roundChosen(m_rounds->roundAt(current.row()));
            });
    connect(m_candidatesView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    Q_EMIT candidateChosen(current.row());
            });
    connect(m_candidatesView, &QAbstractItemView::activated, this,
            [this](const QModelIndex &index) { Q_EMIT candidateActivated(index.row()); });
}

void RoundsPage::setSummary(const QString &text)
{
    m_summary->setText(text);
}

QString RoundsPage::summary() const
{
    return m_summary->text();
}

void RoundsPage::selectRound(qint64 roundId)
{
    const int row = m_rounds->rowOfRound(roundId);
    if (row < 0 || m_roundsView->currentIndex().row() == row)
        return;
    m_selecting = true;
    m_roundsView->selectRow(row);
    m_selecting = false;
}

} // namespace kforge
