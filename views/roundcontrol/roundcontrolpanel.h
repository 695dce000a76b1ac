#pragma once
// The Round control dock: which endpoint and model answer, how many candidates per round, how many
// exemplars, temperature, repair attempts and a hint; a preview of the prompt and, when review is on, the
// rendered prompt to edit before it is sent; start, pause and stop; progress per candidate (with the
// exemplars each candidate saw; choosing one shows the prompt it received) and per round; tokens and cost so far. Says plainly what is missing ("no GPU worker configured — Settings → Workers").
#include "core/llm/endpointconfig.h"
#include "core/optimizer/candidateprompts.h"
#include "core/worker/workerreadiness.h"

#include <QPointer>
#include <QWidget>
#include <functional>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QSplitter;
class QTableView;

namespace kforge {

class Credentials;
class ReadinessWatch;
class RoundProgressModel;
class RoundRunner;
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
    // While the runner waits for approval: send the (edited) prompt, or drop the round.
    void sendPrompt();
    void discardPrompt();
    // The settings a round would start with.
    RoundSettings roundSettings() const;
    std::optional<EndpointConfig> selectedEndpoint() const;

    RoundProgressModel *progressModel() const { return m_progress; }
    QComboBox *endpointBox() const { return m_endpoint; }
    QComboBox *modelBox() const { return m_model; }
    QSpinBox *candidatesBox() const { return m_candidates; }
    QSpinBox *exemplarsBox() const { return m_exemplars; }
    QSpinBox *repairsBox() const { return m_repairs; }
    QDoubleSpinBox *temperatureBox() const { return m_temperature; }
    QPlainTextEdit *hintEdit() const { return m_hint; }
    QCheckBox *reviewBox() const { return m_review; }
    QComboBox *exemplarModeBox() const { return m_exemplarMode; }
    QComboBox *promptChoiceBox() const { return m_promptChoice; }
    QTableView *progressView() const { return m_progressView; }
    QPlainTextEdit *promptEdit() const { return m_prompt; }
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

private:
    void reloadEndpoints();
    void updateModels();
    void updateNotices();
    void updateButtons();
    // The readiness watch's, or none without a runner.
    WorkerReadiness workerReadiness() const;
    void updateProgress();
    void updateUsage();
    void applyRequestTemplate(std::function<void(bool ok)> then = {});
    void onPromptReady(qint64 roundId, const QString &prompt);
    // Fills the prompt box and, for several prompts, the chooser; editable while a round waits for review.
    void showPrompts(const QList<CandidatePrompts::Prompt> &prompts, bool editable);
    void onPromptChosen(int index);
    void setStatus(const QString &text);
    void saveDefaults();

    QPointer<SessionStore> m_store;
    QPointer<RoundRunner> m_runner;
    QPointer<Settings> m_settings;
    QPointer<ReadinessWatch> m_readiness;
    QPointer<Credentials> m_credentials;
    RoundProgressModel *m_progress = nullptr;
    QLabel *m_notice = nullptr;
    QComboBox *m_endpoint = nullptr;
    QComboBox *m_model = nullptr;
    QDoubleSpinBox *m_temperature = nullptr;
    QSpinBox *m_candidates = nullptr;
    QSpinBox *m_exemplars = nullptr;
    QComboBox *m_strategy = nullptr;
    QComboBox *m_exemplarMode = nullptr;
    QSpinBox *m_repairs = nullptr;
    QPlainTextEdit *m_hint = nullptr;
    QCheckBox *m_review = nullptr;
    QPushButton *m_preview = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_pause = nullptr;
    QPushButton *m_stopButton = nullptr;
    QPushButton *m_resume = nullptr;
    QLabel *m_promptLabel = nullptr;
    QComboBox *m_promptChoice = nullptr;
    QStringList m_choiceTexts; // the prompts the chooser offers, edits included
    int m_choiceShown = -1;
    bool m_choiceEditable = false;
    QPlainTextEdit *m_prompt = nullptr;
    QWidget *m_approval = nullptr;
    QSplitter *m_splitter = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_roundBar = nullptr;
    QTableView *m_progressView = nullptr;
    QLabel *m_usage = nullptr;
    quint64 m_keyJob = 0; // a key lookup that finishes after a newer one is dropped
    bool m_starting = false;
};

} // namespace kforge
