#pragma once
// The Collection page: a verified collection (File → Verify Collection…, core/collection/collectionverifier.h) as
// it runs and after: the progress with its ETA and Cancel, the summary the papers print recomputed (correct /
// total, mean, median and max speedup, the share faster, the same over the pairs without flags, the claims that
// hold within their noise), the sortable table (VerifyTableModel through VerifyTableProxy; it opens with the
// flagged pairs first) and every record that could not become a pair with its cause. It observes the verifier it
// is given and refreshes at most five times a second; a double-click on a pair asks for it as a session
// (pairActivated()).
#include <QPointer>
#include <QWidget>

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTimer;
class QTreeWidget;

namespace kforge {

class CollectionVerifier;
class VerifyTableModel;
struct VerifySummary;

class CollectionPanel : public QWidget
{
    Q_OBJECT
public:
    explicit CollectionPanel(QWidget *parent = nullptr);

    // The verification shown (not owned; null: the empty state). Its table is read at once.
    void setVerifier(CollectionVerifier *verifier);
    CollectionVerifier *verifier() const { return m_verifier; }
    // The empty state's button.
    void setEmptyAction(QAction *verifyCollection);

    VerifyTableModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    QTreeWidget *issues() const { return m_issues; }
    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *cancelButton() const { return m_cancel; }
    // The summary and the progress line as shown (plain text).
    QString summaryText() const;
    QString progressText() const;
    // A message for the page's status line (a failure, a session being made for a pair).
    void showMessage(const QString &message);
    QString messageText() const;
    // Reads the table and the summary now (the page otherwise waits up to 200 ms after a change).
    void refresh();

    static QString summaryHtml(const VerifySummary &s);

Q_SIGNALS:
    // A pair was double-clicked (its id).
    void pairActivated(const QString &pair);

private:
    void scheduleRefresh();
    void updateProgress();
    void fillIssues();
    void fitColumns();

    QPointer<CollectionVerifier> m_verifier;
    VerifyTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_empty = nullptr;
    QPushButton *m_emptyButton = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_message = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_report = nullptr;
    QTableView *m_view = nullptr;
    QTreeWidget *m_issues = nullptr;
    QTimer *m_refresh = nullptr; // single-shot: batches table rebuilds
    QTimer *m_clock = nullptr;   // the elapsed time and ETA while it runs
    int m_importedFiles = 0;
    QList<QMetaObject::Connection> m_connections;
};

} // namespace kforge
