#include "views/settings/workerspage.h"

#include "core/settings/settings.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kforge {

namespace {
enum Column { NameColumn, CommandColumn, TransferColumn, ColumnCount };
}

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
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Command"), tr("Kernel transfer")});
    m_table->horizontalHeaderItem(TransferColumn)->setToolTip(transferHelp());
    m_table->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Interactive);
    m_table->horizontalHeader()->resizeSection(NameColumn, 140);
    m_table->horizontalHeader()->setSectionResizeMode(CommandColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(TransferColumn, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                             | QAbstractItemView::AnyKeyPressed);

    auto *add = new QPushButton(tr("&Add"), this);
    m_remove = new QPushButton(tr("&Remove"), this);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_table, 1);
    layout->addWidget(transferNote);
    layout->addLayout(buttons);

    connect(add, &QPushButton::clicked, this, &WorkersPage::addWorker);
    connect(m_remove, &QPushButton::clicked, this, &WorkersPage::removeSelected);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &WorkersPage::updateButtons);
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
    m_table->setRowCount(0);
    for (const WorkerConfig &w : workers)
        addRow(w);
    updateButtons();
}

QList<WorkerConfig> WorkersPage::workers() const
{
    QList<WorkerConfig> out;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        WorkerConfig w;
        w.name = m_table->item(row, NameColumn)->text().trimmed();
        w.command = m_table->item(row, CommandColumn)->text().trimmed();
        if (w.command.isEmpty())
            continue; // a row without a command cannot start anything
        const auto *transfer = static_cast<QComboBox *>(m_table->cellWidget(row, TransferColumn));
        w.transfer = WorkerConfig::Transfer(transfer->currentData().toInt());
        out.append(w);
    }
    return out;
}

void WorkersPage::addRow(const WorkerConfig &worker)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, NameColumn, new QTableWidgetItem(worker.name));
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
    for (int row : rows)
        m_table->removeRow(row);
    updateButtons();
}

void WorkersPage::updateButtons()
{
    m_remove->setEnabled(m_table->selectionModel()->hasSelection());
}

} // namespace kforge
