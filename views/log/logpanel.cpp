#include "views/log/logpanel.h"

#include "views/log/logfiltermodel.h"
#include "views/log/logmodel.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QListView>
#include <QScrollBar>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace kforge {

LogPanel::LogPanel(QWidget *parent)
    : QWidget(parent)
{
    m_model = new LogModel(this);
    m_filter = new LogFilterModel(this);
    m_filter->setSourceModel(m_model);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    for (LogSource source : {LogSource::App, LogSource::Compiler, LogSource::Worker, LogSource::Model}) {
        auto *toggle = new QToolButton(this);
        toggle->setText(LogHub::sourceName(source));
        toggle->setCheckable(true);
        toggle->setChecked(true);
        toggle->setAutoRaise(true);
        toggle->setToolTip(tr("Show messages from: %1").arg(LogHub::sourceName(source)));
        connect(toggle, &QToolButton::toggled, this, [this, source](bool on) { m_filter->setSourceShown(source, on); });
        bar->addWidget(toggle);
    }
    m_level = new QComboBox(this);
    m_level->addItem(tr("All levels"), int(LogLevel::Debug));
    m_level->addItem(tr("Info and above"), int(LogLevel::Info));
    m_level->addItem(tr("Warnings and errors"), int(LogLevel::Warning));
    m_level->addItem(tr("Errors only"), int(LogLevel::Error));
    m_level->setCurrentIndex(1);
    connect(m_level, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setMinimumLevel(LogLevel(m_level->currentData().toInt())); });
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Filter messages"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::textChanged, m_filter, &LogFilterModel::setText);
    m_clear = new QToolButton(this);
    m_clear->setText(tr("Clear"));
    m_clear->setToolTip(tr("Remove every message from the log"));
    m_clear->setAutoRaise(true);
    connect(m_clear, &QToolButton::clicked, this, [this] {
        if (m_model->hub())
            m_model->hub()->clear();
    });
    bar->addWidget(m_level);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_clear);

    m_view = new QListView(this);
    m_view->setModel(m_filter);
    m_view->setUniformItemSizes(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setIconSize(QSize(16, 16));

    // Follow new messages only while the user is looking at the newest ones.
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, [this] {
        QScrollBar *bar = m_view->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 2)
            QMetaObject::invokeMethod(m_view, &QListView::scrollToBottom, Qt::QueuedConnection);
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
}

void LogPanel::setHub(LogHub *hub)
{
    m_model->setHub(hub);
    m_clear->setEnabled(hub != nullptr);
}

} // namespace kforge
