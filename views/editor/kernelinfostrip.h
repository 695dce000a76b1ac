#pragma once
// The strip under a kernel tab: a one-line status ("compiling…", "correct 63.9x"), the count of errors and
// warnings, the message of the diagnostic the user went to, the diagnostics that have no place in the text
// (link and ptxas errors, headers), and per kernel its registers, shared memory, spills and stack.
#include "core/eval/diagnostic.h"
#include "core/eval/kernelresources.h"

#include <QList>
#include <QWidget>

class QGridLayout;
class QLabel;
class QVBoxLayout;

namespace kforge {

class ElidingLabel;

class KernelInfoStrip : public QWidget
{
    Q_OBJECT
public:
    explicit KernelInfoStrip(QWidget *parent = nullptr);

    void setStatus(const QString &text);
    // All of a compile's diagnostics (for the count) and those not marked in the text (listed here).
    void setDiagnostics(const QList<Diagnostic> &all, const QList<Diagnostic> &unmarked);
    // The message of one diagnostic (next/previous, a click in the margin); clearMessage() hides it.
    void showMessage(const Diagnostic &d);
    void clearMessage();
    void setResources(const QList<KernelResources> &resources);
    void setDarkTheme(bool dark);

    // What the strip shows, as plain text (tests, accessibility).
    QString statusText() const;
    QString summaryText() const;
    QString messageText() const;
    QString unmarkedText() const;
    QString resourcesText() const;
    bool hasContent() const;

private:
    void rebuildUnmarked();
    void rebuildResources();
    void recolor();
    void updateVisibility();

    ElidingLabel *m_status = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_message = nullptr;
    QWidget *m_unmarkedBox = nullptr;
    QVBoxLayout *m_unmarkedLayout = nullptr;
    QWidget *m_resourcesBox = nullptr;
    QGridLayout *m_grid = nullptr;

    QList<Diagnostic> m_all;
    QList<Diagnostic> m_unmarked;
    QList<KernelResources> m_resources;
    Diagnostic m_shown;
    bool m_hasMessage = false;
    bool m_dark = false;
};

} // namespace kforge
