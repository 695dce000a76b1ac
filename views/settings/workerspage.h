#pragma once
// Settings → Workers: the GPU workers, each a command line that starts kforge-worker locally, over ssh or
// through a batch system; per worker its status (connected with its GPU, driver and versions, or the exact error
// and what to do) and a Test that runs the pool's handshake on the command without blocking the window.
#include "core/workerpool/workerconfig.h"
#include "core/workerpool/workerstatus.h"
#include "views/settings/settingspage.h"

#include <QHash>

class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace kforge {

class WorkerProbe;

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
    QPushButton *testButton() const { return m_test; }
    // Adds a row for the next local GPU and starts editing its name.
    void addWorker();
    void removeSelected();
    // What the Kernel transfer column's choices mean (shown under the table and as its tool tip).
    static QString transferHelp();

    // What the running pool says about its workers, by command: shown for the rows with that command until a
    // Test answers for them.
    void setLiveStatus(const QHash<QString, WorkerStatus> &byCommand);
    // Tests the selected workers (all of them when none is selected): each command's handshake, asynchronously.
    void testSelected();
    void testRow(int row);
    WorkerStatus status(int row) const;
    // The selected worker's status in full (the box under the table).
    QString detailsText() const;
    int testsRunning() const { return int(m_probes.size()); }

Q_SIGNALS:
    // A Test answered (row as it is now).
    void tested(int row, const kforge::WorkerStatus &status);

private:
    void addRow(const WorkerConfig &worker);
    void updateButtons();
    void updateDetails();
    void setStatus(int row, const WorkerStatus &status);
    WorkerConfig rowConfig(int row) const;
    int rowOfKey(int key) const;
    bool isTesting(int row) const;

    QTableWidget *m_table = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_test = nullptr;
    QPlainTextEdit *m_details = nullptr;
    QHash<QString, WorkerStatus> m_live;
    QHash<int, WorkerProbe *> m_probes; // by row key (rows move when others are removed)
    int m_nextKey = 1;
};

} // namespace kforge
