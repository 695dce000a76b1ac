#pragma once
// The Round control dock: start, pause and stop above three pages. Setup (RoundSetupPage): which endpoint and model
// answer, how many candidates per round, how many exemplars, temperature, repair attempts and a hint. Rounds: the
// session's history, every round with its outcome and, for the chosen one (the running one while a round runs), its
// candidates with their stage, variant, speedup and the exemplars each saw. Prompt: the preview of the prompt and, when
// review is on, the rendered prompt to edit before it is sent; choosing a candidate shows the prompt it received.
// Tokens and cost so far. Says plainly what is missing ("no GPU worker configured — Settings → Workers").
#include "core/async/lateresultguard.h"
#include "core/llm/endpointconfig.h"
#include "core/optimizer/candidateprompts.h"
#include "core/workerpool/workerreadiness.h"
#include "views/roundcontrol/roundsetuppage.h"

#include <QPointer>
#include <QWidget>
#include <functional>
#include <optional>

class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableView;

namespace kforge {

class Credentials;
class ReadinessWatch;
class PromptView;
class RoundHistoryModel;
class RoundProgressModel;
class RoundRunner;
class RoundsPage;
class SessionHistoryWatch;
class SessionStore;
class Settings;
struct RoundSettings;

class RoundControlPanel : public QWidget
{
    Q_OBJECT
public:
    RoundControlPanel(SessionStore *store, RoundRunner *runner, Settings *settings, QWidget *parent = nullptr);
    ~RoundControlPanel() override;

    // Where API keys come from; without one the panel makes its own.
    void setCredentials(Credentials *credentials);
    // The window's one worker readiness; without one the panel watches its runner's evaluator and its settings.
    void setReadinessWatch(ReadinessWatch *readiness);

    // Looks the key up (asynchronously), hands the endpoint to the runner and starts a round. The outcome
    // arrives as the runner's signals, or as statusText() when it could not start.
    void start();
    void pauseOrResume();
    void stop();
    // Renders the prompt(s) a round would send now into the prompt box (the round samples its own exemplars);
    // with a prompt per candidate, promptChoiceBox() picks which one is shown.
    bool previewPrompt();
    // Shows the prompt the candidate in row `row` of the progress list received.
    bool showCandidatePrompt(int row);
    // Shows a round of the session's history (its candidates in the progress list) on the Rounds page.
    bool showRound(qint64 roundId);
    // While the runner waits for approval: send the (edited) prompt, or drop the round.
    void sendPrompt();
    void discardPrompt();
    // The settings a round would start with.
    RoundSettings roundSettings() const;
    std::optional<EndpointConfig> selectedEndpoint() const;

    enum Page { PageSetup, PageRounds, PagePrompt };
    void showPage(Page page);
    Page currentPage() const;

    RoundProgressModel *progressModel() const { return m_progress; }
    RoundHistoryModel *roundsModel() const { return m_rounds; }
    QTableView *roundsView() const;
    QString historyText() const;
    PromptView *promptView() const { return m_promptView; }
    RoundSetupPage *setupPage() const { return m_setup; }
    QComboBox *endpointBox() const { return m_setup->endpointBox(); }
    QComboBox *modelBox() const { return m_setup->modelBox(); }
    QSpinBox *candidatesBox() const { return m_setup->candidatesBox(); }
    QSpinBox *exemplarsBox() const { return m_setup->exemplarsBox(); }
    QSpinBox *repairsBox() const { return m_setup->repairsBox(); }
    QDoubleSpinBox *temperatureBox() const { return m_setup->temperatureBox(); }
    QPlainTextEdit *hintEdit() const { return m_setup->hintEdit(); }
    QCheckBox *reviewBox() const { return m_setup->reviewBox(); }
    QComboBox *exemplarModeBox() const { return m_setup->exemplarModeBox(); }
    QComboBox *promptChoiceBox() const;
    QTableView *progressView() const { return m_progressView; }
    QPlainTextEdit *promptEdit() const;
    QPushButton *startButton() const { return m_start; }
    QPushButton *pauseButton() const { return m_pause; }
    QPushButton *stopButton() const { return m_stopButton; }
    QString noticeText() const;
    QString statusText() const;
    QString usageText() const;

Q_SIGNALS:
    // The user followed an empty-state link: "workers" or "endpoints".
    void settingsRequested(const QString &page);
    void errorOccurred(const QString &message);

protected:
    // A theme switched at run time: the notice's style sheet takes its colours from the palette when polished.
    void changeEvent(QEvent *event) override;

private:
    // The constructor's steps: the controls above the pages, the pages, how they are laid out, then what follows
    // the controls, the runner and the session.
    void createNotice();
    QHBoxLayout *createButtons();
    void createPages();
    void layOut(QHBoxLayout *buttons);
    void connectControls();
    void connectRunner();
    void connectStore();
    void resumeInterrupted();

    void updateNotices();
    void updateButtons();
    // The readiness watch's, or none without a runner.
    WorkerReadiness workerReadiness() const;
    void updateProgress();
    void updateUsage();
    void applyRequestTemplate(std::function<void(bool ok)> then = {});
    void onPromptReady(qint64 roundId, const QString &prompt);
    // Fills the prompt page and, for several prompts, the chooser; editable while a round waits for review.
    void showPrompts(const QList<CandidatePrompts::Prompt> &prompts, bool editable, const QString &label);
    // A session or task change: no prompt, preview or review of the one before survives it.
    void forgetSession();
    void onHistoryChanged();
    void setStatus(const QString &text);

    QPointer<SessionStore> m_store;
    QPointer<RoundRunner> m_runner;
    QPointer<Settings> m_settings;
    QPointer<ReadinessWatch> m_readiness;
    QPointer<Credentials> m_credentials;
    QPointer<SessionHistoryWatch> m_history;
    RoundProgressModel *m_progress = nullptr;
    RoundHistoryModel *m_rounds = nullptr;
    QLabel *m_notice = nullptr;
    RoundSetupPage *m_setup = nullptr;
    QPushButton *m_preview = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_pause = nullptr;
    QPushButton *m_stopButton = nullptr;
    QPushButton *m_resume = nullptr;
    QTabWidget *m_pages = nullptr;
    PromptView *m_promptView = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_roundBar = nullptr;
    RoundsPage *m_roundsPage = nullptr;
    QTableView *m_progressView = nullptr;
    QString m_historyOf; // the session whose history the Rounds page has shown (the page is chosen once per session)
    QLabel *m_usage = nullptr;
    LateResultGuard m_keyLookups; // a key lookup that finishes after a newer one is dropped
    bool m_starting = false;
};

} // namespace kforge
