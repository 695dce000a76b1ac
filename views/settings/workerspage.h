#pragma once
// Settings → Workers: the GPU workers, each a command line that starts kforge-worker locally, over ssh or
// through a batch system.
#include "core/worker/workerconfig.h"
#include "views/settings/settingspage.h"

class QPushButton;
class QTableWidget;

namespace kforge {

class WorkersPage : public SettingsPage
{
    Q_OBJECT
public:
    explicit WorkersPage(QWidget *parent = nullptr);

    QString title() const override;
    QIcon icon() const override;
    void load(const Settings &settings) override;
    void apply(Settings &settings) override;
    void restoreDefaults() override;

    QList<WorkerConfig> workers() const;
    void setWorkers(const QList<WorkerConfig> &workers);
    QTableWidget *table() const { return m_table; }
    // Adds a row for the next local GPU and starts editing its name.
    void addWorker();
    void removeSelected();
    // What the Kernel transfer column's choices mean (shown under the table and as its tool tip).
    static QString transferHelp();

private:
    void addRow(const WorkerConfig &worker);
    void updateButtons();

    QTableWidget *m_table = nullptr;
    QPushButton *m_remove = nullptr;
};

} // namespace kforge
