#pragma once
// The Variants dock: the session's population as a sortable, filterable table with lineage, steering
// (pin, exclude, accept, tag), "compare these two" and "fork". It observes the session store and keeps the
// shared VariantSelection in step with the table's selection.
#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QStackedWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace kforge {

class SessionStore;
class VariantSelection;
class VariantsFilterModel;
class VariantsModel;

class VariantsPanel : public QWidget
{
    Q_OBJECT
public:
    VariantsPanel(SessionStore *store, VariantSelection *selection, QWidget *parent = nullptr);
    ~VariantsPanel() override;

    VariantsModel *model() const { return m_model; }
    VariantsFilterModel *filterModel() const { return m_filter; }
    QTableView *view() const { return m_view; }
    QLineEdit *searchField() const { return m_search; }
    QComboBox *statusFilter() const { return m_status; }
    QCheckBox *correctOnly() const { return m_correctOnly; }

    // The selected variants, in table order.
    QList<qint64> selectedIds() const;
    // The context menu for the current selection (the caller owns it).
    QMenu *createContextMenu(QWidget *parent);

    // The actions behind the menu, on the selection.
    void setPinned(bool pinned);
    void setExcluded(bool excluded);
    void acceptSuspicious();
    void setTags(const QStringList &tags);
    void showParents(qint64 variantId);
    void showChildren(qint64 variantId);
    void clearLineage();
    // Emits compareRequested() for the two selected variants (faster first) and sets the selection's pair.
    bool compareSelected();

Q_SIGNALS:
    void compareRequested(qint64 a, qint64 b);
    // "Fork to edit": a new variant starting from this one's source (the editor or RoundRunner::fork).
    void forkRequested(qint64 variantId);
    // "Export Variant…": the variant as a CMake or PyTorch project (the window opens the export dialog).
    void exportRequested(qint64 variantId);
    // "Profile Source Lines": the variant evaluated again with the source-level pass.
    void profileRequested(qint64 variantId);
    void errorOccurred(const QString &message);

private:
    void onTableSelectionChanged();
    void onCurrentChanged(qint64 id);
    void editTags();
    void updateState();
    void scheduleCount();
    void updateCount();

    QPointer<SessionStore> m_store;
    QPointer<VariantSelection> m_selection;
    VariantsModel *m_model = nullptr;
    VariantsFilterModel *m_filter = nullptr;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_empty = nullptr;
    QTableView *m_view = nullptr;
    QLineEdit *m_search = nullptr;
    QComboBox *m_status = nullptr;
    QCheckBox *m_correctOnly = nullptr;
    QLabel *m_count = nullptr;
    QWidget *m_lineageBar = nullptr;
    QLabel *m_lineageText = nullptr;
    QTimer *m_countTimer = nullptr;
    bool m_syncing = false;
};

} // namespace kforge
