#pragma once
// The assembly beside the source: a kernel's SASS and PTX in two tabs, with its registers, spills, shared
// memory and instruction mix above. Selecting a source line (highlightSourceLine) highlights its
// instructions; selecting an instruction emits sourceLineSelected so the editor can follow. When PTX or SASS
// is missing (no disassembler, no line info), the panel says what is missing and what would enable it, and
// shows what it has. "Beside the reference" shows the task reference's SASS next to the candidate's (its
// listing arrives through setReferenceAssembly after referenceRequested), the same kernel when the reference
// has one of that name.
#include "core/eval/sourceprofile.h"
#include "core/sourcelevel/assemblyfetcher.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QTabWidget;
class QTableView;

namespace kforge {

class PtxModel;
class SassModel;

class AssemblyPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AssemblyPanel(QWidget *parent = nullptr);

    // What the panel shows while the fetch runs ("Compiling PTX and SASS for variant 12...").
    void setPending(const QString &what);
    void setAssembly(const Assembly &assembly);
    // PC samples per instruction (the candidate side); an Absent profile clears them.
    void setSourceProfile(const SourceProfile &profile);
    const Assembly &assembly() const { return m_assembly; }
    // The reference's listing for the side-by-side SASS; while none arrived, `pending` says what runs.
    void setReferenceAssembly(const Assembly &assembly);
    void setReferencePending(const QString &what);
    // Forgets the reference's listing (another task): asked for again when the switch is on next.
    void resetReference();
    const Assembly &referenceAssembly() const { return m_reference; }
    bool referenceShown() const;
    void setReferenceShown(bool shown);
    SassModel *referenceSassModel() const { return m_refSass; }
    QString currentReferenceKernel() const;
    QString referenceStatusText() const;

    SassModel *sassModel() const { return m_sass; }
    PtxModel *ptxModel() const { return m_ptx; }
    QTabWidget *tabs() const { return m_tabs; }
    QString currentKernel() const;
    void setCurrentKernel(const QString &mangledName);
    QString statusText() const;

public Q_SLOTS:
    // 1-based, in the file the assembly was compiled from; scrolls both tabs to the first instruction.
    void highlightSourceLine(int line);

Q_SIGNALS:
    void sourceLineSelected(int line);
    // The panel became visible (its dock tab raised): a stale listing can be fetched now.
    void shown();
    // "Beside the reference" was switched on and no reference listing is there yet.
    void referenceRequested();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void showKernel();
    void showReferenceKernel();
    void updateStatus();
    void onRowActivated(QTableView *view, int row);

    Assembly m_assembly;
    SourceProfile m_profile;
    QComboBox *m_kernels = nullptr;
    QLabel *m_resources = nullptr;
    QLabel *m_mix = nullptr;
    QLabel *m_status = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableView *m_sassView = nullptr;
    QTableView *m_ptxView = nullptr;
    SassModel *m_sass = nullptr;
    PtxModel *m_ptx = nullptr;
    Assembly m_reference;
    QCheckBox *m_showReference = nullptr;
    QWidget *m_referencePane = nullptr;
    QComboBox *m_refKernels = nullptr;
    QLabel *m_refStatus = nullptr;
    QTableView *m_refView = nullptr;
    SassModel *m_refSass = nullptr;
    bool m_referenceAsked = false;
    QString m_pending;
    bool m_following = false; // a row selection made by highlightSourceLine must not echo back
};

} // namespace kforge
