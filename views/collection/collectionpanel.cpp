#include "views/collection/collectionpanel.h"

#include "core/collection/collectionverifier.h"
#include "views/collection/verifytablemodel.h"
#include "views/collection/verifytableproxy.h"

#include <QAction>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTextDocument>
#include <QTimer>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString durationText(double s)
{
    const int t = int(s + 0.5);
    return t >= 3600 ? u"%1:%2:%3"_s.arg(t / 3600).arg(t / 60 % 60, 2, 10, QChar(u'0')).arg(t % 60, 2, 10, QChar(u'0'))
                     : u"%1:%2"_s.arg(t / 60).arg(t % 60, 2, 10, QChar(u'0'));
}

QString percent(int n, int of)
{
    return of ? QLocale().toString(100.0 * n / of, 'f', 0) : u"0"_s;
}

void setUpCollectionTable(QTableView *view, QAbstractItemModel *model)
{
    view->setObjectName(u"collectionTable"_s);
    view->setModel(model);
    view->setSortingEnabled(true);
    // The flagged pairs first, as in the report (the pairs a reader must look at before trusting a figure), the rest
    // in the collection's order until the user sorts by another column.
    view->sortByColumn(VerifyTableModel::Flags, Qt::DescendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    // Rows as tall as a line of text (the style's default is half as tall again): a 20-pair collection in view.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
}

} // namespace

CollectionPanel::CollectionPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new VerifyTableModel(this))
    , m_proxy(new VerifyTableProxy(this))
{
    setObjectName(u"CollectionPanel"_s);
    m_proxy->setSourceModel(m_model);

    m_stack = new QStackedWidget(this);
    auto *emptyPage = new QWidget(m_stack);
    auto *emptyLayout = new QVBoxLayout(emptyPage);
    m_empty = new QLabel(tr("No collection verified yet. Verify a collection of kernels (a folder of problems and "
                            "candidates, a released-kernels JSON or a KernelBench run folder): every pair re-measured "
                            "by KForge's judge, with every claim marked as holding or not and why."),
                         emptyPage);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_emptyButton = new QPushButton(emptyPage);
    m_emptyButton->hide();
    emptyLayout->addStretch();
    emptyLayout->addWidget(m_empty);
    emptyLayout->addWidget(m_emptyButton, 0, Qt::AlignHCenter);
    emptyLayout->addStretch();
    m_stack->addWidget(emptyPage);

    auto *page = new QWidget(m_stack);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    m_title = new QLabel(page);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    auto *progressRow = new QHBoxLayout;
    m_progress = new QProgressBar(page);
    m_progress->setTextVisible(true);
    m_status = new QLabel(page);
    m_cancel = new QPushButton(tr("Cancel"), page);
    m_cancel->setToolTip(tr("Stop the verification: what is measured stays in results.jsonl; verifying the same "
                            "output folder again continues it"));
    m_report = new QPushButton(tr("Open Report"), page);
    m_report->setToolTip(tr("Open report.html in the browser"));
    progressRow->addWidget(m_progress, 2);
    progressRow->addWidget(m_status, 3);
    progressRow->addWidget(m_cancel);
    progressRow->addWidget(m_report);
    m_summary = new QLabel(page);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message = new QLabel(page);
    m_message->setWordWrap(true);
    m_message->hide();

    m_view = new QTableView(page);
    setUpCollectionTable(m_view, m_proxy);
    m_view->setToolTip(tr("Double-click a pair to open it as a session: the problem as the reference, the candidate "
                          "as a variant with its measured result"));
    // Columns fit their contents when a collection is shown and when it is done, else stay as the user drags them.
    connect(m_model, &QAbstractItemModel::modelReset, this, &CollectionPanel::fitColumns);
    connect(m_view, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex &index) {
        const QString pair = index.data(VerifyTableModel::PairRole).toString();
        if (!pair.isEmpty())
            Q_EMIT pairActivated(pair);
    });
    m_issues = new QTreeWidget(page);
    m_issues->setObjectName(u"collectionIssues"_s);
    m_issues->setColumnCount(2);
    m_issues->setHeaderLabels({tr("Not verified"), tr("Cause")});
    m_issues->setRootIsDecorated(false);
    m_issues->setWordWrap(true);
    auto *split = new QSplitter(Qt::Vertical, page);
    split->addWidget(m_view);
    split->addWidget(m_issues);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);

    layout->addWidget(m_title);
    layout->addLayout(progressRow);
    layout->addWidget(m_message);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    m_stack->addWidget(page);

    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_stack);

    m_refresh = new QTimer(this);
    m_refresh->setSingleShot(true);
    m_refresh->setInterval(200);
    connect(m_refresh, &QTimer::timeout, this, &CollectionPanel::refresh);
    m_clock = new QTimer(this);
    m_clock->setInterval(1000);
    connect(m_clock, &QTimer::timeout, this, &CollectionPanel::updateProgress);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_verifier) {
            m_verifier->cancel();
            m_cancel->setEnabled(false);
            updateProgress();
        }
    });
    connect(m_report, &QPushButton::clicked, this, [this] {
        if (m_verifier)
            QDesktopServices::openUrl(QUrl::fromLocalFile(m_verifier->htmlPath()));
    });
    setVerifier(nullptr);
}

void CollectionPanel::setEmptyAction(QAction *verifyCollection)
{
    m_emptyButton->setText(verifyCollection->text().remove(u'&'));
    m_emptyButton->show();
    connect(m_emptyButton, &QPushButton::clicked, verifyCollection, &QAction::trigger);
}

void CollectionPanel::setVerifier(CollectionVerifier *verifier)
{
    for (const QMetaObject::Connection &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_verifier = verifier;
    m_importedFiles = 0;
    m_message->hide();
    m_stack->setCurrentIndex(verifier ? 1 : 0);
    if (!verifier) {
        m_model->setRows({});
        m_clock->stop();
        return;
    }
    m_title->setText(tr("%1 → %2").arg(QDir::toNativeSeparators(verifier->collection().path),
                                       QDir::toNativeSeparators(verifier->options().outDir)));
    m_cancel->setEnabled(true);
    m_connections << connect(verifier, &CollectionVerifier::fileImported, this, [this] {
        ++m_importedFiles;
        updateProgress();
    });
    m_connections << connect(verifier, &CollectionVerifier::imported, this, &CollectionPanel::scheduleRefresh);
    m_connections << connect(verifier, &CollectionVerifier::runFinished, this, &CollectionPanel::scheduleRefresh);
    m_connections << connect(verifier, &CollectionVerifier::noVerdict, this,
                             [this](const QString &pair, const QString &message) {
                                 showMessage(tr("%1: no verdict: %2").arg(pair, message));
                             });
    m_connections << connect(verifier, &CollectionVerifier::failed, this, &CollectionPanel::showMessage);
    m_connections << connect(verifier, &CollectionVerifier::finished, this, [this] {
        refresh();
        fitColumns();
    });
    m_connections << connect(verifier, &QObject::destroyed, this, [this] { setVerifier(nullptr); });
    m_clock->start();
    fillIssues();
    refresh();
}

void CollectionPanel::fitColumns()
{
    m_view->resizeColumnsToContents();
    for (int c = 0; c < m_model->columnCount(); ++c)
        m_view->setColumnWidth(c, std::min(m_view->columnWidth(c), 320));
}

QString CollectionPanel::messageText() const
{
    return m_message->isVisible() ? m_message->text() : QString();
}

void CollectionPanel::showMessage(const QString &message)
{
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
}

void CollectionPanel::scheduleRefresh()
{
    if (!m_refresh->isActive())
        m_refresh->start();
}

void CollectionPanel::refresh()
{
    m_refresh->stop();
    if (!m_verifier)
        return;
    const QList<VerifyRow> rows = m_verifier->rows();
    m_model->setRows(rows);
    m_summary->setText(summaryHtml(VerifyTable::summary(rows)));
    updateProgress();
}

void CollectionPanel::fillIssues()
{
    m_issues->clear();
    if (!m_verifier)
        return;
    for (const CollectionIssue &i : m_verifier->collection().issues) {
        auto *item = new QTreeWidgetItem(m_issues, {i.where, i.message});
        item->setToolTip(1, i.message);
        if (!i.blocking)
            item->setForeground(0, palette().brush(QPalette::PlaceholderText));
    }
    m_issues->setVisible(m_issues->topLevelItemCount() > 0);
    m_issues->resizeColumnToContents(0);
}

void CollectionPanel::updateProgress()
{
    if (!m_verifier)
        return;
    const VerifyRunner *runner = m_verifier->runner();
    const bool busy = m_verifier->isBusy();
    m_cancel->setVisible(busy);
    m_report->setVisible(!busy && QFileInfo::exists(m_verifier->htmlPath()));
    if (!busy)
        m_clock->stop();
    using Stage = CollectionVerifier::Stage;
    switch (m_verifier->stage()) {
    case Stage::Idle:
    case Stage::Importing:
        m_progress->setRange(0, 0);
        m_status->setText(m_verifier->isCancelled() ? tr("Cancelling…")
                                                    : tr("Importing the problems (%1 done)…").arg(m_importedFiles));
        return;
    case Stage::Imported:
        m_progress->setRange(0, 0);
        m_status->setText(tr("Imported; waiting for the workers…"));
        return;
    case Stage::Running:
    case Stage::Writing:
    case Stage::Done: break;
    }
    if (!runner) {
        m_progress->setRange(0, 1);
        m_progress->setValue(1);
        m_status->setText(m_verifier->isCancelled() ? tr("Cancelled.") : tr("Done: nothing left to measure."));
        return;
    }
    m_progress->setRange(0, std::max(1, runner->pairs()));
    m_progress->setValue(runner->pairsDone());
    m_progress->setFormat(tr("%1 of %2 pairs").arg(runner->pairsDone()).arg(runner->pairs()));
    QString text;
    if (busy) {
        text = tr("%1 elapsed").arg(durationText(runner->elapsedS()));
        if (const std::optional<double> eta = runner->etaS())
            text += tr(", ETA %1").arg(durationText(*eta));
        if (m_verifier->isCancelled())
            text = tr("Cancelling: waiting for what is in flight…");
    } else {
        text = m_verifier->isCancelled() ? tr("Cancelled after %1; verify the same output folder again to continue.")
                                               .arg(durationText(runner->elapsedS()))
                                         : tr("Done in %1.").arg(durationText(runner->elapsedS()));
        if (runner->pairsWithoutVerdict())
            text += u' ' + tr("%n pair(s) without a verdict (no worker, no GPU).", nullptr, runner->pairsWithoutVerdict());
    }
    m_status->setText(text);
}

QString CollectionPanel::progressText() const
{
    return m_progress->text() + u' ' + m_status->text();
}

QString CollectionPanel::summaryText() const
{
    QTextDocument doc;
    doc.setHtml(m_summary->text());
    return doc.toPlainText();
}

QString CollectionPanel::summaryHtml(const VerifySummary &s)
{
    const auto line = [](const QString &label, const VerifyStats &st) {
        return tr("<b>%1</b>: correct %2 / %3 · mean %4 · median %5 · max %6 · faster than the reference %7 / %3 "
                  "(%8%)")
            .arg(label)
            .arg(st.correct)
            .arg(st.total)
            .arg(VerifyTableModel::speedupText(st.mean).isEmpty() ? u"—"_s : VerifyTableModel::speedupText(st.mean),
                 VerifyTableModel::speedupText(st.median).isEmpty() ? u"—"_s : VerifyTableModel::speedupText(st.median),
                 VerifyTableModel::speedupText(st.max).isEmpty() ? u"—"_s : VerifyTableModel::speedupText(st.max))
            .arg(st.faster)
            .arg(percent(st.faster, st.total));
    };
    QStringList lines{line(tr("All pairs"), s.all), line(tr("Without flags"), s.unflagged)};
    lines << tr("Claims that hold within their noise: %1 of %2 · flagged %3 · not imported %4 · not run %5 · %6 pairs")
                 .arg(s.claimsHold)
                 .arg(s.withClaim)
                 .arg(s.flagged)
                 .arg(s.notImported)
                 .arg(s.notRun)
                 .arg(s.pairs);
    return lines.join(u"<br>"_s);
}

} // namespace kforge
