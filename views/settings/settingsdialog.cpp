#include "views/settings/settingsdialog.h"

#include "core/settings/settings.h"
#include "views/settings/compilerpage.h"
#include "views/settings/endpointspage.h"
#include "views/settings/generalpage.h"
#include "views/settings/timingpage.h"
#include "views/settings/workerspage.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace kforge {

SettingsDialog::SettingsDialog(Settings &settings, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
{
    setWindowTitle(tr("Settings"));
    m_nav = new QListWidget(this);
    m_nav->setIconSize(QSize(22, 22));
    m_nav->setSpacing(2);
    m_stack = new QStackedWidget(this);
    // Order matches enum Page.
    m_pages = {new GeneralPage(this), new CompilerPage(this), new WorkersPage(this), new TimingPage(this),
               new EndpointsPage(this)};
    for (SettingsPage *page : std::as_const(m_pages)) {
        page->load(m_settings);
        m_stack->addWidget(page);
        m_nav->addItem(new QListWidgetItem(page->icon(), page->title()));
    }
    m_nav->setFixedWidth(m_nav->sizeHintForColumn(0) + 2 * m_nav->frameWidth() + 16);
    connect(m_nav, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);
    m_nav->setCurrentRow(0);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::Apply
                                         | QDialogButtonBox::RestoreDefaults,
                                     this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        // A key still on its way to the keychain may fail: the dialog stays until it is stored, so a failure is
        // said here, with its fallbacks, and not lost with a closed dialog.
        if (models()->keyWritesPending() > 0) {
            m_acceptWhenStored = true;
            return;
        }
        if (models()->lastApplyFailed()) {
            showPage(Models);
            return;
        }
        accept();
    });
    connect(models(), &EndpointsPage::keyStored, this, [this](const QString &, const QString &error) {
        if (!error.isEmpty()) {
            m_acceptWhenStored = false;
            showPage(Models);
            return;
        }
        if (m_acceptWhenStored && models()->keyWritesPending() == 0 && !models()->lastApplyFailed())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &SettingsDialog::apply);
    connect(m_buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this, [this] {
        if (auto *page = qobject_cast<SettingsPage *>(m_stack->currentWidget()))
            page->restoreDefaults();
    });
    m_buttons->button(QDialogButtonBox::RestoreDefaults)->setToolTip(tr("Show the defaults of this page"));

    auto *top = new QHBoxLayout;
    top->addWidget(m_nav);
    top->addWidget(m_stack, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(m_buttons);
    resize(800, 560);
}

void SettingsDialog::showPage(Page page)
{
    m_nav->setCurrentRow(int(page));
}

EndpointsPage *SettingsDialog::models() const
{
    return static_cast<EndpointsPage *>(m_pages.at(Models));
}

WorkersPage *SettingsDialog::workers() const
{
    return static_cast<WorkersPage *>(m_pages.at(Workers));
}

void SettingsDialog::apply()
{
    for (SettingsPage *page : std::as_const(m_pages))
        page->apply(m_settings);
    m_settings.sync();
}

} // namespace kforge
