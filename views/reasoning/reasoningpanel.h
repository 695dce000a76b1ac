#pragma once
// The Reasoning dock: the model's answer rendered as Markdown, live while it streams (deltas appended,
// re-rendered at most a few times a second), its separate reasoning ("thinking") text in a collapsible
// section, linked to the variant it produced and the exact prompt it answered. Its list holds every answer of the
// session (from the session's history, read off the GUI thread). It follows the round as it streams, shows the
// current variant's answer when the user picks one, and switches to a "why is A faster than B" answer as soon as
// it is asked.
#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDialog;
class QLabel;
class QPushButton;
class QTextBrowser;
class QTimer;
class QToolButton;

namespace kforge {

class ReasoningEntriesModel;
class RoundRunner;
class SessionHistoryWatch;
struct HistoryAnswer;
class SessionStore;
class VariantSelection;
struct ParsedResponse;
struct ReasoningEntry;

class ReasoningPanel : public QWidget
{
    Q_OBJECT
public:
    // `runner` may be null: the panel then shows stored answers only.
    ReasoningPanel(SessionStore *store, VariantSelection *selection, RoundRunner *runner, QWidget *parent = nullptr);
    ~ReasoningPanel() override;

    ReasoningEntriesModel *model() const { return m_model; }
    // Shows a stored or streaming answer by its response id; false when there is none.
    bool showResponse(qint64 responseId);
    // Shows the answer that produced a variant (or its stored analysis when it was not a model's).
    void showVariant(qint64 variantId);
    qint64 shownResponse() const { return m_shown; }
    qint64 shownVariant() const { return m_shownVariant; }
    void setFollowLive(bool on);
    bool followsLive() const;
    void setReasoningExpanded(bool on);
    bool isReasoningExpanded() const;
    // The exact prompt the shown answer was given; empty when there is none.
    QString promptText() const;
    // Opens a window with that prompt (non-modal; it deletes itself when closed).
    QDialog *showPrompt();
    // Renders pending text now instead of at the next throttle tick (tests).
    void renderNow();
    int renderCount() const { return m_renders; }

    // What is shown, as plain text.
    QString answerText() const;
    QString reasoningText() const;
    QString headerText() const;

protected:
    // A theme switched at run time: the reasoning's colour and the header's links follow the palette.
    void changeEvent(QEvent *event) override;

private:
    void updateReasoningColour();
    void onRequestStarted(qint64 responseId);
    void onTextDelta(qint64 responseId, const QString &text);
    void onReasoningDelta(qint64 responseId, const QString &text);
    void onResponseFinished(qint64 responseId, qint64 variantId);
    ReasoningEntry entryFromStore(qint64 responseId) const;
    QString titleOf(qint64 promptId, qint64 responseId) const;
    void scheduleRender();
    void render();
    void updateHeader();
    void onComboActivated(int row);
    // Lists the answers of the session's history the list does not hold yet.
    void listHistory();
    static QString titleOf(const HistoryAnswer &a);
    void updatePlaceholder();

    QPointer<SessionStore> m_store;
    QPointer<VariantSelection> m_selection;
    QPointer<RoundRunner> m_runner;
    QPointer<SessionHistoryWatch> m_history;
    ReasoningEntriesModel *m_model = nullptr;
    QComboBox *m_entries = nullptr;
    QCheckBox *m_follow = nullptr;
    QCheckBox *m_whole = nullptr;
    QPushButton *m_promptButton = nullptr;
    QLabel *m_header = nullptr;
    QToolButton *m_reasoningToggle = nullptr;
    QTextBrowser *m_reasoning = nullptr;
    QTextBrowser *m_answer = nullptr;
    QTimer *m_renderTimer = nullptr;
    qint64 m_shown = 0;
    qint64 m_shownVariant = 0;
    int m_renders = 0;
    bool m_updatingCombo = false;
};

} // namespace kforge
