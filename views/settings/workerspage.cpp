#include "views/settings/workerspage.h"

#include "core/settings/settings.h"
#include "core/workerpool/workerprobe.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QTextLayout>
#include <QVBoxLayout>

namespace kforge {

namespace {
enum Column { NameColumn, CommandColumn, TransferColumn, StatusColumn, ColumnCount };
constexpr int kRowKeyRole = Qt::UserRole + 1; // on the name item: which row a running Test belongs to
constexpr int kStatusRole = Qt::UserRole + 2; // on the status item: the WorkerStatus shown

// The Command and Status columns show their text whole: wrapped at spaces, and inside a word only where it is too long
// for the column (a path), in a row as tall as it needs. An error is read in the table, not guessed from its first
// words.
class WrappedTextDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt(option);
        initStyleOption(&opt, index);
        const QRect area = textArea(opt);
        QTextLayout layout(opt.text, opt.font);
        const int height = lay(layout, area.width());
        opt.text.clear(); // the style draws the background, selection and icon; the text is drawn here
        const QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        painter->save();
        painter->setClipRect(opt.rect);
        const bool selected = opt.state & QStyle::State_Selected;
        painter->setPen(opt.palette.color(opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled,
                                          selected ? QPalette::HighlightedText : QPalette::Text));
        layout.draw(painter, QPointF(area.left(), area.top() + std::max(0, (area.height() - height) / 2)));
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const QSize oneLine = QStyledItemDelegate::sizeHint(option, index);
        QStyleOptionViewItem opt(option);
        initStyleOption(&opt, index);
        if (opt.rect.width() <= 0) // no column width given: as wide as one line
            return oneLine;
        QTextLayout layout(opt.text, opt.font);
        const int height = lay(layout, textArea(opt).width());
        return {oneLine.width(), std::max(oneLine.height(), height + 2 * margin(opt))};
    }

private:
    static int margin(const QStyleOptionViewItem &opt)
    {
        const QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
        return style->pixelMetric(QStyle::PM_FocusFrameHMargin, &opt, opt.widget) + 1;
    }

    // Where the style puts an item's text (beside its icon), less its margins.
    static QRect textArea(const QStyleOptionViewItem &opt)
    {
        const QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
        const int m = margin(opt);
        return style->subElementRect(QStyle::SE_ItemViewItemText, &opt, opt.widget).adjusted(m, 0, -m, 0);
    }

    // Lays `layout` out in lines of `width`; its height.
    static int lay(QTextLayout &layout, int width)
    {
        QTextOption option;
        option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        layout.setTextOption(option);
        layout.beginLayout();
        qreal y = 0;
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(std::max(1, width));
            line.setPosition(QPointF(0, y));
            y += line.height();
        }
        layout.endLayout();
        return int(std::ceil(y));
    }
};
} // namespace

WorkersPage::WorkersPage(QWidget *parent)
    : SettingsPage(parent)
{
    auto *intro = new QLabel(tr("A worker is a command that starts kforge-worker, which runs the kernels on one GPU. "
                                "Examples: <tt>kforge-worker --device 0</tt>, <tt>ssh gpu-box kforge-worker</tt>, "
                                "<tt>srun --gpus=1 kforge-worker</tt>. Several workers evaluate in parallel."),
                             this);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::RichText);
    auto *transferNote = new QLabel(transferHelp(), this);
    transferNote->setObjectName(QStringLiteral("transferNote"));
    transferNote->setWordWrap(true);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Command"), tr("Kernel transfer"), tr("Status")});
    m_table->horizontalHeaderItem(TransferColumn)->setToolTip(transferHelp());
    m_table->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Interactive);
    m_table->horizontalHeader()->resizeSection(NameColumn, 110);
    m_table->horizontalHeader()->setSectionResizeMode(CommandColumn, QHeaderView::Interactive);
    m_table->horizontalHeader()->resizeSection(CommandColumn, 200);
    m_table->horizontalHeader()->setSectionResizeMode(TransferColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(StatusColumn, QHeaderView::Stretch);
    m_table->horizontalHeaderItem(StatusColumn)
        ->setToolTip(tr("What the running workers say, or the answer of the last Test; the selected worker's in full "
                        "below the table"));
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *wrapped = new WrappedTextDelegate(m_table);
    m_table->setItemDelegateForColumn(CommandColumn, wrapped);
    m_table->setItemDelegateForColumn(StatusColumn, wrapped);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                             | QAbstractItemView::AnyKeyPressed);

    // Ctrl+C (and the context menu) on the table: the current worker's status in full, as the box below shows it.
    auto *copy = new QAction(tr("&Copy Status"), m_table);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    m_table->addAction(copy);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(copy, &QAction::triggered, this, [this] {
        if (m_table->currentRow() >= 0)
            QApplication::clipboard()->setText(detailsText());
    });

    // The selected worker's status in full: an error can be several lines (the launcher's own words, then what to
    // do), and it is copied into a terminal or a bug report.
    m_details = new QPlainTextEdit(this);
    m_details->setObjectName(QStringLiteral("workerDetails"));
    m_details->setReadOnly(true);
    m_details->setMinimumHeight(m_details->fontMetrics().lineSpacing() * 6 + 12);

    auto *add = new QPushButton(tr("&Add"), this);
    m_remove = new QPushButton(tr("&Remove"), this);
    m_test = new QPushButton(tr("&Test"), this);
    m_test->setToolTip(tr("Start the selected workers' commands (all of them when none is selected) as KForge does, "
                          "and show what each answers: its GPU, driver and versions, or the exact error"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_test);
    buttons->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_table, 3);
    layout->addWidget(m_details, 2);
    layout->addLayout(buttons);
    layout->addWidget(transferNote);

    connect(add, &QPushButton::clicked, this, &WorkersPage::addWorker);
    connect(m_remove, &QPushButton::clicked, this, &WorkersPage::removeSelected);
    connect(m_test, &QPushButton::clicked, this, &WorkersPage::testSelected);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &WorkersPage::updateButtons);
    connect(m_table, &QTableWidget::currentCellChanged, this, &WorkersPage::updateDetails);
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        // Another command is another worker: what was said about the old one no longer holds.
        if (item->column() == CommandColumn)
            setStatus(item->row(), m_live.value(item->text().trimmed()));
    });
    updateButtons();
}

QString WorkersPage::transferHelp()
{
    return tr("Kernel transfer: how a compiled kernel reaches the worker. File path: the worker reads the file "
              "KForge wrote, which needs the same machine or a shared folder. Inline: the kernel is sent in the "
              "request itself, for a worker on another host. Automatic: inline when the command starts with ssh, "
              "srun or another remote launcher, the file path otherwise.");
}

QString WorkersPage::title() const
{
    return tr("Workers");
}

QIcon WorkersPage::icon() const
{
    return QIcon::fromTheme(QStringLiteral("network-server"), style()->standardIcon(QStyle::SP_DriveNetIcon));
}

void WorkersPage::load(const Settings &settings)
{
    setWorkers(settings.workers());
}

void WorkersPage::apply(Settings &settings)
{
    settings.setWorkers(workers());
}

void WorkersPage::restoreDefaults()
{
    setWorkers(Settings::Defaults::workers());
}

void WorkersPage::setWorkers(const QList<WorkerConfig> &workers)
{
    qDeleteAll(m_probes);
    m_probes.clear();
    m_table->setRowCount(0);
    for (const WorkerConfig &w : workers)
        addRow(w);
    updateButtons();
}

QList<WorkerConfig> WorkersPage::workers() const
{
    QList<WorkerConfig> out;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const WorkerConfig w = rowConfig(row);
        if (!w.command.isEmpty()) // a row without a command cannot start anything
            out.append(w);
    }
    return out;
}

WorkerConfig WorkersPage::rowConfig(int row) const
{
    WorkerConfig w;
    w.name = m_table->item(row, NameColumn)->text().trimmed();
    w.command = m_table->item(row, CommandColumn)->text().trimmed();
    const auto *transfer = static_cast<QComboBox *>(m_table->cellWidget(row, TransferColumn));
    w.transfer = WorkerConfig::Transfer(transfer->currentData().toInt());
    return w;
}

void WorkersPage::addRow(const WorkerConfig &worker)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto *name = new QTableWidgetItem(worker.name);
    name->setData(kRowKeyRole, m_nextKey++);
    m_table->setItem(row, NameColumn, name);
    auto *status = new QTableWidgetItem;
    status->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    m_table->setItem(row, StatusColumn, status);
    auto *command = new QTableWidgetItem(worker.command);
    command->setFont(QFont(QStringLiteral("monospace")));
    m_table->setItem(row, CommandColumn, command);
    auto *transfer = new QComboBox(m_table);
    transfer->addItem(tr("Automatic"), int(WorkerConfig::Transfer::Auto));
    transfer->addItem(tr("File path (same machine)"), int(WorkerConfig::Transfer::Path));
    transfer->addItem(tr("Inline (remote host)"), int(WorkerConfig::Transfer::Inline));
    transfer->setItemData(0,
                          tr("Inline when the command starts with ssh, srun or another remote launcher, else the "
                             "file path"),
                          Qt::ToolTipRole);
    transfer->setItemData(1,
                          tr("The worker reads the compiled kernel from a file KForge wrote (same machine or a "
                             "shared folder)"),
                          Qt::ToolTipRole);
    transfer->setItemData(2, tr("The compiled kernel is sent inside the request (a worker on another host)"),
                          Qt::ToolTipRole);
    transfer->setToolTip(transferHelp());
    transfer->setCurrentIndex(std::max(0, transfer->findData(int(worker.transfer))));
    m_table->setCellWidget(row, TransferColumn, transfer);
    setStatus(row, m_live.value(worker.command.trimmed()));
}

void WorkersPage::addWorker()
{
    WorkerConfig w;
    const int device = m_table->rowCount();
    w.name = tr("GPU %1").arg(device);
    w.command = QStringLiteral("kforge-worker --device %1").arg(device);
    addRow(w);
    const int row = m_table->rowCount() - 1;
    m_table->setCurrentCell(row, NameColumn);
    m_table->editItem(m_table->item(row, NameColumn));
    updateButtons();
}

void WorkersPage::removeSelected()
{
    QList<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end(), std::greater<>());
    for (int row : rows) {
        delete m_probes.take(m_table->item(row, NameColumn)->data(kRowKeyRole).toInt());
        m_table->removeRow(row);
    }
    updateButtons();
}

void WorkersPage::updateButtons()
{
    m_remove->setEnabled(m_table->selectionModel()->hasSelection());
    m_test->setEnabled(m_table->rowCount() > 0);
    updateDetails();
}

void WorkersPage::setLiveStatus(const QHash<QString, WorkerStatus> &byCommand)
{
    m_live = byCommand;
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (const WorkerStatus::State s = status(row).state;
            s == WorkerStatus::State::Unknown || (s == WorkerStatus::State::Starting && !isTesting(row)))
            setStatus(row, m_live.value(m_table->item(row, CommandColumn)->text().trimmed()));
    // A failing worker's error in full at once, without a click.
    if (m_table->currentRow() < 0)
        for (int row = 0; row < m_table->rowCount(); ++row)
            if (status(row).state == WorkerStatus::State::Failed || status(row).state == WorkerStatus::State::NoGpu) {
                m_table->setCurrentCell(row, NameColumn);
                break;
            }
}

WorkerStatus WorkersPage::status(int row) const
{
    const QTableWidgetItem *item = m_table->item(row, StatusColumn);
    return item ? item->data(kStatusRole).value<WorkerStatus>() : WorkerStatus{};
}

void WorkersPage::setStatus(int row, const WorkerStatus &status)
{
    QTableWidgetItem *item = m_table->item(row, StatusColumn);
    if (!item)
        return;
    item->setData(kStatusRole, QVariant::fromValue(status));
    item->setText(status.summary());
    item->setToolTip(status.details());
    QStyle::StandardPixmap icon = QStyle::SP_CustomBase;
    switch (status.state) {
    case WorkerStatus::State::Connected: icon = QStyle::SP_DialogApplyButton; break;
    case WorkerStatus::State::NoGpu: icon = QStyle::SP_MessageBoxWarning; break;
    case WorkerStatus::State::Failed: icon = QStyle::SP_MessageBoxCritical; break;
    case WorkerStatus::State::Starting: icon = QStyle::SP_BrowserReload; break;
    case WorkerStatus::State::Unknown: break;
    }
    item->setIcon(icon == QStyle::SP_CustomBase ? QIcon() : style()->standardIcon(icon));
    if (row == m_table->currentRow())
        updateDetails();
}

void WorkersPage::updateDetails()
{
    const int row = m_table->currentRow();
    if (row < 0 || row >= m_table->rowCount()) {
        m_details->setPlainText(m_table->rowCount() > 0 ? tr("Select a worker to see its status in full.") : QString());
        return;
    }
    const WorkerConfig w = rowConfig(row);
    m_details->setPlainText(w.displayName() + u'\n' + status(row).details());
}

QString WorkersPage::detailsText() const
{
    return m_details->toPlainText();
}

bool WorkersPage::isTesting(int row) const
{
    return m_probes.contains(m_table->item(row, NameColumn)->data(kRowKeyRole).toInt());
}

int WorkersPage::rowOfKey(int key) const
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, NameColumn)->data(kRowKeyRole).toInt() == key)
            return row;
    return -1;
}

void WorkersPage::testSelected()
{
    QList<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    if (rows.isEmpty())
        for (int row = 0; row < m_table->rowCount(); ++row)
            rows << row;
    for (int row : std::as_const(rows))
        testRow(row);
}

void WorkersPage::testRow(int row)
{
    if (row < 0 || row >= m_table->rowCount())
        return;
    const WorkerConfig config = rowConfig(row);
    if (config.command.isEmpty())
        return;
    const int key = m_table->item(row, NameColumn)->data(kRowKeyRole).toInt();
    delete m_probes.take(key); // a Test of the same row again: the newer one answers
    auto *probe = new WorkerProbe(config, this);
    m_probes.insert(key, probe);
    WorkerStatus starting;
    starting.state = WorkerStatus::State::Starting;
    setStatus(row, starting);
    connect(probe, &WorkerProbe::finished, this, [this, key, probe](const WorkerStatus &answer) {
        m_probes.remove(key);
        probe->deleteLater();
        const int now = rowOfKey(key);
        // A row removed, or its command changed meanwhile: the answer is about something no longer shown.
        if (now < 0 || rowConfig(now).command != probe->config().command)
            return;
        setStatus(now, answer);
        Q_EMIT tested(now, answer);
    });
    probe->start();
}

} // namespace kforge
