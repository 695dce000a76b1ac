#pragma once
// The Task dock: what the open session's task asks for, read from the task.json stored in the session:
// the description, the parameters, each input and output with dtype and shape (as written and evaluated),
// the tolerance per dtype, the FLOP and byte formulas with their values, and the speed-of-light floors on
// the GPU, from the peaks the worker measured (a connected worker's, else those stored with the latest result).
// A second tab, Signature, is the TaskInfoModel tree; for a PyTorch task it is the one shown first.
#include "core/eval/deviceinfo.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QStackedWidget;
class QTabWidget;
class QTextBrowser;
class QTreeView;

namespace kforge {

class SessionStore;
class TaskInfoModel;
struct TaskSummary;
struct TaskTensorInfo;

class TaskPanel : public QWidget
{
    Q_OBJECT
public:
    explicit TaskPanel(SessionStore *store, QWidget *parent = nullptr);

    // A worker's device_info: its measured peaks give the floors (they win over stored ones).
    void setDevice(const DeviceInfo &device);
    // What the panel shows, as plain text (empty state included).
    QString text() const;
    // Why the task cannot be shown (no session, an unreadable task.json); empty when it is shown.
    QString problem() const { return m_problem; }
    QTextBrowser *view() const { return m_view; }
    // The tree of the task's signature, tensors, tolerance and what discovery derived (any task kind).
    TaskInfoModel *model() const { return m_model; }
    QTreeView *tree() const { return m_tree; }

private:
    struct Peaks {
        double gbps = 0;
        double gflops = 0;
        QString device;
        QString source; // where the figures come from, for the user
        bool valid() const { return gbps > 0 || gflops > 0; }
    };

    void reload();
    void readStoredPeaks();
    void render();
    void renderTorch();
    void showHtml(const QString &html);
    QString floorsHtml(bool hasFlops, double flops, bool hasBytes, double bytesMoved) const;
    QString torchTensorsHtml(const QString &title, const QList<TaskTensorInfo> &list, bool inputs) const;
    QString torchWorkHtml(const TaskSummary &s) const;
    QString torchToleranceHtml(const TaskSummary &s) const;

    QPointer<SessionStore> m_store;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_empty = nullptr;
    QTextBrowser *m_view = nullptr;
    QTabWidget *m_pages = nullptr;
    QTreeView *m_tree = nullptr;
    TaskInfoModel *m_model = nullptr;
    Peaks m_workerPeaks;
    Peaks m_storedPeaks;
    qint64 m_storedFrom = 0; // the evaluation the stored peaks were read from
    QString m_problem;
};

} // namespace kforge
