#pragma once
// The settings dialog: one page per concern, written to Settings on OK/Apply. Whoever cares about a value
// listens to Settings' signals, not to this dialog. OK closes it once the API keys typed in it are stored; a failed
// store keeps it open on Models, which says why and offers the fallbacks.
#include <QDialog>
#include <QList>

class QDialogButtonBox;
class QListWidget;
class QStackedWidget;

namespace kforge {

class EndpointsPage;
class Settings;
class SettingsPage;
class WorkersPage;

class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    enum Page { General, Compiler, Workers, Timing, Models };

    explicit SettingsDialog(Settings &settings, QWidget *parent = nullptr);

    void showPage(Page page);
    SettingsPage *page(Page page) const { return m_pages.value(int(page)); }
    int pageCount() const { return int(m_pages.size()); }
    QDialogButtonBox *buttons() const { return m_buttons; }
    EndpointsPage *models() const;
    WorkersPage *workers() const;

    // Writes every page to Settings.
    void apply();

private:
    Settings &m_settings;
    QListWidget *m_nav = nullptr;
    QStackedWidget *m_stack = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QList<SettingsPage *> m_pages;
    bool m_acceptWhenStored = false; // OK was pressed while a key was being stored
};

} // namespace kforge
