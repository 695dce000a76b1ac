#include "views/roundcontrol/roundcontrolpanel.h"
#include "core/llm/credentials.h"
#include "core/llm/llmrequest.h"
#include "core/optimizer/promptbuilder.h"
#include "core/optimizer/roundrunner.h"
#include "core/session/sessionhistory.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/workbench/readinesswatch.h"
#include "core/workerpool/evaluator.h"
#include "views/roundcontrol/promptview.h"
#include "views/roundcontrol/roundhistorymodel.h"
#include "views/roundcontrol/roundprogressmodel.h"
#include "views/roundcontrol/roundspage.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace kforge {

namespace {

QString stateText(RoundRunner::State s)
{
    switch (s) {
    case RoundRunner::State::Idle: return RoundControlPanel::tr("idle");
    case RoundRunner::State::Preparing: return RoundControlPanel::tr("measuring the reference");
    case RoundRunner::State::Sampling: return RoundControlPanel::tr("choosing exemplars");
    case RoundRunner::State::AwaitingApproval: return RoundControlPanel::tr("waiting for you to send the prompt");
    case RoundRunner::State::Streaming: return RoundControlPanel::tr("the model is answering");
    case RoundRunner::State::Evaluating: return RoundControlPanel::tr("evaluating the answers");
    case RoundRunner::State::Paused: return RoundControlPanel::tr("paused");
    case RoundRunner::State::Stopping: return RoundControlPanel::tr("stopping");
    }
    return {};
}

QString finishText(RoundState s)
{
    switch (s) {
    case RoundState::Finished: return RoundControlPanel::tr("finished");
    case RoundState::Stopped: return RoundControlPanel::tr("stopped");
    case RoundState::Failed: return RoundControlPanel::tr("failed");
    case RoundState::Interrupted: return RoundControlPanel::tr("interrupted");
    case RoundState::Running: return RoundControlPanel::tr("running");
    case RoundState::Paused: return RoundControlPanel::tr("paused");
    }
    return {};
}

QString money(double cost)
{
    return RoundControlPanel::tr("$%1").arg(QLocale().toString(cost, 'f', cost < 1 ? 4 : 2));
}

} // namespace

RoundControlPanel::RoundControlPanel(SessionStore *store, RoundRunner *runner, Settings *settings, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_runner(runner)
    , m_settings(settings)
    , m_history(SessionHistoryWatch::of(store))
    , m_progress(new RoundProgressModel(store, runner, this))
    , m_rounds(new RoundHistoryModel(store, m_history, this))
{
    createNotice();
    QHBoxLayout *buttons = createButtons();
    createPages();
    layOut(buttons);
    connectControls();
    setReadinessWatch(new ReadinessWatch(m_runner ? m_runner->evaluator() : nullptr, m_settings, this));
    connectRunner();
    connectStore();
    updateNotices();
    updateButtons();
    updateProgress();
    updateUsage();
    applyRequestTemplate();
}

void RoundControlPanel::createNotice()
{
    m_notice = new QLabel(this);
    m_notice->setObjectName(QStringLiteral("notice"));
    m_notice->setWordWrap(true);
    m_notice->setTextFormat(Qt::RichText);
    m_notice->setStyleSheet(QStringLiteral("QLabel#notice { background: palette(alternate-base); padding: 6px; "
                                           "border-left: 3px solid #d35400; }"));
    connect(m_notice, &QLabel::linkActivated, this, &RoundControlPanel::settingsRequested);
}

QHBoxLayout *RoundControlPanel::createButtons()
{
    m_preview = new QPushButton(tr("Preview Prompt"), this);
    m_preview->setObjectName(QStringLiteral("preview"));
    m_start = new QPushButton(tr("Start Round"), this);
    m_start->setObjectName(QStringLiteral("start"));
    m_start->setDefault(true);
    m_pause = new QPushButton(tr("Pause"), this);
    m_stopButton = new QPushButton(tr("Stop"), this);
    m_resume = new QPushButton(tr("Resume Interrupted Round"), this);
    m_resume->setToolTip(tr("Continue the round a previous KForge left unfinished"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_preview);
    buttons->addStretch(1);
    buttons->addWidget(m_resume);
    buttons->addWidget(m_start);
    buttons->addWidget(m_pause);
    buttons->addWidget(m_stopButton);
    return buttons;
}

void RoundControlPanel::createPages()
{
    m_setup = new RoundSetupPage(m_settings, this);
    m_promptView = new PromptView(this);
    m_roundsPage = new RoundsPage(m_rounds, m_progress, this);
    m_progressView = m_roundsPage->candidatesView();
    // Pages rather than one column: at 1280×800 a column of settings, candidates and prompt left the prompt no
    // height at all. Each page gets the dock's whole height; the buttons and the round's progress stay above them.
    m_pages = new QTabWidget(this);
    m_pages->setDocumentMode(true);
    m_pages->addTab(m_setup, tr("Setup"));
    m_pages->addTab(m_roundsPage, tr("Rounds"));
    m_pages->addTab(m_promptView, tr("Prompt"));
}

void RoundControlPanel::layOut(QHBoxLayout *buttons)
{
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // wraps to the dock, never widens it
    m_roundBar = new QProgressBar(this);
    m_roundBar->setFormat(tr("%v of %m candidates done"));
    m_usage = new QLabel(this);
    m_usage->setWordWrap(true); // a long line of counts must not widen the dock (and the window)
    m_usage->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_notice);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_roundBar);
    layout->addWidget(m_pages, 1);
    layout->addWidget(m_usage);
}

void RoundControlPanel::connectControls()
{
    connect(m_setup, &RoundSetupPage::endpointsReloaded, this, [this] {
        updateNotices();
        updateButtons();
        applyRequestTemplate();
    });
    connect(m_setup, &RoundSetupPage::endpointChanged, this, [this] {
        applyRequestTemplate();
        updateButtons();
    });
    connect(m_setup, &RoundSetupPage::requestChanged, this, [this] { applyRequestTemplate(); });
    connect(m_setup, &RoundSetupPage::candidatesChanged, this, &RoundControlPanel::updateProgress);
    if (m_settings)
        connect(m_settings, &Settings::workersChanged, this, &RoundControlPanel::updateNotices);
    connect(m_preview, &QPushButton::clicked, this, &RoundControlPanel::previewPrompt);
    connect(m_start, &QPushButton::clicked, this, &RoundControlPanel::start);
    connect(m_pause, &QPushButton::clicked, this, &RoundControlPanel::pauseOrResume);
    connect(m_stopButton, &QPushButton::clicked, this, &RoundControlPanel::stop);
    connect(m_resume, &QPushButton::clicked, this, &RoundControlPanel::resumeInterrupted);
    connect(m_promptView, &PromptView::sendRequested, this, &RoundControlPanel::sendPrompt);
    connect(m_promptView, &PromptView::discardRequested, this, &RoundControlPanel::discardPrompt);
    connect(m_progress, &RoundProgressModel::progressChanged, this, &RoundControlPanel::updateProgress);
    connect(m_roundsPage, &RoundsPage::candidateChosen, this, &RoundControlPanel::showCandidatePrompt);
    connect(m_roundsPage, &RoundsPage::candidateActivated, this, [this](int row) {
        if (showCandidatePrompt(row))
            showPage(PagePrompt);
    });
    connect(m_roundsPage, &RoundsPage::roundChosen, this, &RoundControlPanel::showRound);
    if (m_history)
        connect(m_history, &SessionHistoryWatch::changed, this, &RoundControlPanel::onHistoryChanged);
}

void RoundControlPanel::connectRunner()
{
    if (!m_runner)
        return;
    connect(m_runner, &RoundRunner::stateChanged, this, [this] {
        updateButtons();
        updateProgress();
    });
    connect(m_runner, &RoundRunner::promptReady, this, &RoundControlPanel::onPromptReady);
    connect(m_runner, &RoundRunner::roundStarted, this, [this](qint64) {
        m_starting = false;
        if (!m_promptView->isAwaitingApproval())
            showPage(PageRounds);
        updateButtons();
        updateProgress();
        updateUsage();
    });
    connect(m_runner, &RoundRunner::roundFinished, this, [this](qint64 roundId, RoundState state, const QString &message) {
        m_promptView->setAwaitingApproval(false);
        const int number = m_store ? m_store->rounds().find(roundId).value_or(RoundRecord{}).number : 0;
        setStatus(message.isEmpty() ? tr("Round %1 %2.").arg(number).arg(finishText(state))
                                    : tr("Round %1 %2: %3").arg(number).arg(finishText(state), message));
        updateButtons();
        updateUsage();
    });
    connect(m_runner, &RoundRunner::errorOccurred, this, [this](const QString &message) {
        setStatus(message);
        Q_EMIT errorOccurred(message);
    });
}

void RoundControlPanel::connectStore()
{
    if (!m_store)
        return;
    for (auto signal : {&SessionStore::opened, &SessionStore::closed, &SessionStore::taskChanged})
        connect(m_store, signal, this, [this] {
            forgetSession();
            updateNotices();
            updateButtons();
            updateUsage();
        });
    connect(m_store, &SessionStore::roundChanged, this, [this] {
        updateUsage();
        updateButtons();
    });
}

void RoundControlPanel::resumeInterrupted()
{
    if (!m_store || !m_runner || m_store->interruptedRounds().isEmpty())
        return;
    applyRequestTemplate([this](bool ok) {
        if (!ok || !m_store || !m_runner)
            return;
        for (qint64 id : m_store->interruptedRounds()) {
            const auto r = m_store->rounds().find(id);
            if (r && r->state == RoundState::Interrupted) {
                if (!m_runner->resume(id))
                    setStatus(m_runner->errorString());
                return;
            }
        }
        setStatus(tr("No interrupted round is left to resume."));
    });
}

RoundControlPanel::~RoundControlPanel() = default;

void RoundControlPanel::setCredentials(Credentials *credentials)
{
    m_credentials = credentials;
}

void RoundControlPanel::updateNotices()
{
    QStringList lines;
    if (!m_store || !m_store->isOpen() || !m_store->hasTask())
        lines << tr("No session is open — open a task folder or a session file to run rounds.");
    if (const WorkerReadiness workers = workerReadiness(); workers.isUnusable())
        lines << workers.summary().toHtmlEscaped() + tr(" — <a href=\"workers\">Settings → Workers</a>");
    if (!m_settings || m_settings->endpoints().isEmpty())
        lines << tr("No endpoint configured — <a href=\"endpoints\">Settings → Models</a>");
    if (!m_runner)
        lines << tr("The workbench has no round runner: rounds cannot run here.");
    m_notice->setText(lines.join(QStringLiteral("<br>")));
    m_notice->setVisible(!lines.isEmpty());
}

QString RoundControlPanel::noticeText() const
{
    QTextDocument doc;
    doc.setHtml(m_notice->text());
    return doc.toPlainText();
}

QString RoundControlPanel::statusText() const
{
    return m_status->text();
}

QString RoundControlPanel::usageText() const
{
    return m_usage->text();
}

void RoundControlPanel::setStatus(const QString &text)
{
    m_status->setText(text);
}

RoundSettings RoundControlPanel::roundSettings() const
{
    return m_setup->roundSettings();
}

std::optional<EndpointConfig> RoundControlPanel::selectedEndpoint() const
{
    return m_setup->selectedEndpoint();
}

void RoundControlPanel::setReadinessWatch(ReadinessWatch *readiness)
{
    if (m_readiness && m_readiness->parent() == this)
        delete m_readiness.data(); // the panel's own, replaced by the window's
    else if (m_readiness)
        disconnect(m_readiness, nullptr, this, nullptr);
    m_readiness = readiness;
    if (m_readiness)
        connect(m_readiness, &ReadinessWatch::changed, this, [this] {
            updateNotices();
            updateButtons();
        });
    updateNotices();
    updateButtons();
}

WorkerReadiness RoundControlPanel::workerReadiness() const
{
    // A missing Settings counts as no worker configured, as it always did here.
    if (!m_runner || !m_readiness || !m_settings)
        return WorkerReadiness(WorkerReadiness::State::NoWorker);
    return m_readiness->readiness();
}

void RoundControlPanel::updateButtons()
{
    const bool ready = m_runner && m_store && m_store->isOpen() && m_store->hasTask();
    const auto state = m_runner ? m_runner->state() : RoundRunner::State::Idle;
    const bool idle = state == RoundRunner::State::Idle;
    // A round costs requests: it starts only once a worker has reported its GPU.
    const WorkerReadiness workers = workerReadiness();
    const bool configured = workers.canEvaluate() && selectedEndpoint().has_value();
    m_start->setEnabled(ready && idle && configured && !m_starting);
    m_preview->setEnabled(ready);
    m_pause->setEnabled(ready && !idle && state != RoundRunner::State::Stopping);
    m_pause->setText(state == RoundRunner::State::Paused ? tr("Resume") : tr("Pause"));
    m_stopButton->setEnabled(ready && !idle && state != RoundRunner::State::Stopping);
    bool interrupted = false;
    if (ready && idle)
        for (qint64 id : m_store->interruptedRounds())
            if (const auto r = m_store->rounds().find(id); r && r->state == RoundState::Interrupted)
                interrupted = true;
    m_resume->setVisible(interrupted);
    m_resume->setEnabled(interrupted && configured && !m_starting);
    QString why;
    if (!ready)
        why = tr("Open a session with a task first.");
    else if (!workers.canEvaluate())
        why = workers.explanation();
    else if (!configured)
        why = tr("Configure an endpoint first.");
    else if (!idle)
        why = tr("A round is running.");
    m_start->setToolTip(why);
}

void RoundControlPanel::updateProgress()
{
    const auto state = m_runner ? m_runner->state() : RoundRunner::State::Idle;
    const qint64 round = m_progress->round();
    if (round && state != RoundRunner::State::Idle) {
        const int number = m_store ? m_store->rounds().find(round).value_or(RoundRecord{}).number : 0;
        setStatus(tr("Round %1: %2").arg(number).arg(stateText(state)));
    }
    int total = std::max(m_progress->rowCount(), 0);
    if (m_store && round)
        if (const auto r = m_store->rounds().find(round))
            total = std::max(total, r->settings.value(QLatin1String("candidates")).toInt());
    // No round chosen or run yet: nothing is done or to be done.
    m_roundBar->setVisible(round != 0);
    m_roundBar->setMaximum(std::max(total, 1));
    m_roundBar->setValue(round ? m_progress->finishedCount() : 0);
}

void RoundControlPanel::updateUsage()
{
    if (!m_store || !m_store->isOpen()) {
        m_usage->clear();
        return;
    }
    const RoundUsage session = m_store->rounds().sessionUsage();
    const qint64 roundId = m_progress->round();
    const RoundUsage round = roundId ? m_store->rounds().find(roundId).value_or(RoundRecord{}).usage : RoundUsage{};
    const QLocale l;
    m_usage->setText(tr("Tokens: %1 this round, %2 in the session (%3 requests) · cost %4 this round, %5 in the session")
                         .arg(l.toString(round.totalTokens()), l.toString(session.totalTokens()))
                         .arg(session.requests)
                         .arg(money(round.cost), money(session.cost)));
}

void RoundControlPanel::applyRequestTemplate(std::function<void(bool ok)> then)
{
    const auto ep = selectedEndpoint();
    if (!m_runner || !ep) {
        if (then)
            then(false);
        return;
    }
    if (m_starting && !then)
        return; // the starting lookup reads the fields when it completes
    if (!m_credentials)
        m_credentials = new Credentials(this);
    // A newer lookup replaces this one and delivers instead.
    m_credentials->lookup(*ep, this, m_keyLookups.bind([this, ep = *ep, then = std::move(then)](const ApiKeyLookup &key) {
        if (!key.found() && ep.needsKey()) {
            setStatus(tr("No API key for %1: %2").arg(ep.displayName.isEmpty() ? ep.id : ep.displayName, key.error));
            if (then)
                then(false);
            return;
        }
        if (!m_runner)
            return;
        // Read the fields now: they may have changed while the key was looked up.
        LlmRequest r;
        r.endpoint = ep;
        r.model = m_setup->modelName();
        r.temperature = m_setup->temperature();
        r.apiKey = key.key;
        m_runner->setRequestTemplate(r);
        if (then)
            then(true);
    }));
}

void RoundControlPanel::start()
{
    if (!m_runner || m_starting)
        return;
    if (const WorkerReadiness workers = workerReadiness(); !workers.canEvaluate()) {
        setStatus(workers.explanation());
        return;
    }
    if (!selectedEndpoint()) {
        setStatus(tr("No endpoint configured: add one in Settings → Models."));
        return;
    }
    m_starting = true;
    // What a round starts with becomes the default for the next session (written once, not per keystroke).
    m_setup->saveDefaults();
    updateButtons();
    setStatus(tr("Starting…"));
    applyRequestTemplate([this](bool ok) {
        if (!m_runner) {
            m_starting = false;
            return;
        }
        if (!ok) {
            m_starting = false;
            updateButtons();
            return;
        }
        m_runner->setPromptReview(m_setup->reviewsPrompt());
        const RoundSettings s = roundSettings();
        if (!m_runner->start(s)) {
            m_starting = false;
            setStatus(tr("The round did not start: %1").arg(m_runner->errorString()));
            updateButtons();
        }
    });
}

void RoundControlPanel::pauseOrResume()
{
    if (!m_runner)
        return;
    if (m_runner->state() == RoundRunner::State::Paused)
        m_runner->unpause();
    else
        m_runner->pause();
}

void RoundControlPanel::stop()
{
    if (m_runner)
        m_runner->stop();
}

bool RoundControlPanel::previewPrompt()
{
    if (!m_store || !m_store->isOpen() || !m_store->hasTask())
        return false;
    const RoundSettings s = roundSettings();
    CandidatePrompts drafts;
    QString error;
    QList<CandidatePrompts::Prompt> prompts;
    QString note;
    if (drafts.draw(*m_store, s, 1, &error)) {
        prompts = drafts.prompts();
        note = drafts.perCandidate()
                   ? tr("Preview: each candidate draws its own exemplars, the best so far always among them; a round "
                        "draws again, so they may differ.")
                   : tr("Preview: a round draws its own exemplars, so they may differ.");
    } else if (const Variant *ref = error.isEmpty() ? m_store->population().reference() : nullptr) {
        ContrastiveRequest req;
        req.task = m_store->task();
        req.hint = s.hint;
        req.templateName = s.templateName;
        req.exemplars << PromptBuilder::exemplar(*m_store, ref->id);
        prompts << CandidatePrompts::Prompt{{ref->id}, PromptBuilder::contrastive(req, &error), 0};
        note = tr("Preview: no measured variant yet; the first round measures the reference and shows it.");
    }
    if (prompts.isEmpty() || prompts.constFirst().text.isEmpty()) {
        setStatus(tr("The prompt did not render: %1").arg(error));
        return false;
    }
    if (!m_promptView->isAwaitingApproval()) {
        showPrompts(prompts, false, note);
        showPage(PagePrompt);
    }
    return true;
}

bool RoundControlPanel::showCandidatePrompt(int row)
{
    if (!m_store || m_promptView->isAwaitingApproval() || row < 0 || row >= m_progress->rowCount())
        return false;
    const QModelIndex index = m_progress->index(row, RoundProgressModel::Candidate);
    const auto prompt = m_store->exchanges().prompt(index.data(RoundProgressModel::PromptIdRole).toLongLong());
    if (!prompt)
        return false;
    const int number = m_store->rounds().find(prompt->roundId).value_or(RoundRecord{}).number;
    const QString who = tr("round %1, %2").arg(number).arg(index.data().toString());
    const QString exemplars = RoundProgressModel::exemplarText(m_store, prompt->exemplarIds);
    showPrompts({CandidatePrompts::Prompt{prompt->exemplarIds, prompt->rendered, prompt->id}}, false,
                prompt->kind == QLatin1String("repair") ? tr("The prompt %1 received").arg(who)
                                                        : tr("The prompt %1 received; exemplars %2").arg(who, exemplars));
    return true;
}

void RoundControlPanel::showPrompts(const QList<CandidatePrompts::Prompt> &prompts, bool editable, const QString &label)
{
    QStringList choices;
    for (int i = 0; i < prompts.size(); ++i)
        choices << tr("Candidate %1 of %2: exemplars %3")
                       .arg(i + 1)
                       .arg(prompts.size())
                       .arg(RoundProgressModel::exemplarText(m_store, prompts[i].exemplars));
    m_promptView->showPrompts(prompts, choices, editable, label);
}

QComboBox *RoundControlPanel::promptChoiceBox() const
{
    return m_promptView->choiceBox();
}

QPlainTextEdit *RoundControlPanel::promptEdit() const
{
    return m_promptView->edit();
}

void RoundControlPanel::onPromptReady(qint64, const QString &prompt)
{
    QList<CandidatePrompts::Prompt> prompts = m_runner ? m_runner->candidatePrompts().prompts()
                                                       : QList<CandidatePrompts::Prompt>{};
    if (prompts.isEmpty())
        prompts << CandidatePrompts::Prompt{{}, prompt, 0};
    showPrompts(prompts, true,
                prompts.size() > 1
                    ? tr("Review the prompts (one per candidate); edit any of them if you like, then Send.")
                    : tr("Review the prompt; edit it if you like, then Send."));
    m_promptView->setAwaitingApproval(true);
    // The prompt is what needs reading now.
    showPage(PagePrompt);
    promptEdit()->setFocus();
}

void RoundControlPanel::sendPrompt()
{
    if (!m_runner || m_runner->state() != RoundRunner::State::AwaitingApproval)
        return;
    const QStringList texts = m_promptView->texts();
    m_promptView->setAwaitingApproval(false);
    m_promptView->setLabel(texts.size() > 1 ? tr("Sent prompts") : tr("Sent prompt"));
    showPage(PageRounds); // the answers come in there
    m_runner->approvePrompts(texts);
}

void RoundControlPanel::discardPrompt()
{
    if (!m_runner || m_runner->state() != RoundRunner::State::AwaitingApproval)
        return;
    m_promptView->setAwaitingApproval(false);
    m_runner->rejectPrompt();
}

void RoundControlPanel::forgetSession()
{
    // A prompt of the session before (its task, its exemplars) must not be read as this one's.
    m_promptView->clear();
    m_roundsPage->setSummary({});
    m_pages->setTabText(PageRounds, tr("Rounds"));
    m_historyOf.clear(); // the page is chosen again once this session's history is in
}

void RoundControlPanel::showPage(Page page)
{
    m_pages->setCurrentIndex(int(page));
}

RoundControlPanel::Page RoundControlPanel::currentPage() const
{
    return Page(m_pages->currentIndex());
}

QTableView *RoundControlPanel::roundsView() const
{
    return m_roundsPage->roundsView();
}

QString RoundControlPanel::historyText() const
{
    return m_roundsPage->summary();
}

bool RoundControlPanel::showRound(qint64 roundId)
{
    if (!m_history || !m_history->isCurrent() || !m_history->history().round(roundId))
        return false;
    if (roundId != m_progress->round()) {
        // The running round keeps its live rows; any other is read from the history.
        const bool live = m_runner && m_runner->isRunning() && m_runner->currentRound() == roundId;
        if (!live || m_progress->rowCount() == 0)
            m_progress->showRound(roundId, m_history->history().answersOfRound(roundId));
    }
    m_roundsPage->selectRound(roundId);
    const bool live = m_runner && m_runner->isRunning() && m_runner->currentRound() == roundId;
    if (const RoundRecord *r = m_history->history().round(roundId); r && !live)
        setStatus(r->message.isEmpty() ? tr("Round %1 %2.").arg(r->number).arg(finishText(r->state))
                                       : tr("Round %1 %2: %3").arg(r->number).arg(finishText(r->state), r->message));
    updateProgress();
    updateUsage(); // "this round" is the one shown
    return true;
}

void RoundControlPanel::onHistoryChanged()
{
    if (!m_history || !m_history->isCurrent()) {
        m_roundsPage->setSummary({});
        return;
    }
    const SessionHistory &h = m_history->history();
    m_pages->setTabText(PageRounds, h.rounds.isEmpty() ? tr("Rounds") : tr("Rounds (%1)").arg(h.rounds.size()));
    m_roundsPage->setSummary(h.rounds.isEmpty() ? tr("No round yet: Start Round sends the first prompt.")
                                                 : m_rounds->summary());
    if (!h.error.isEmpty())
        m_roundsPage->setSummary(h.error);
    if (!h.rounds.isEmpty()) {
        // The round shown: the running one, else the one chosen, else the last.
        qint64 round = m_progress->round();
        if (!round || !h.round(round))
            round = h.rounds.constLast().id;
        showRound(round);
    }
    if (m_historyOf != h.path) {
        // A session with a history opens on it, a new one on its settings.
        m_historyOf = h.path;
        if (!m_promptView->isAwaitingApproval() && currentPage() != PagePrompt)
            showPage(h.rounds.isEmpty() ? PageSetup : PageRounds);
    }
}

void RoundControlPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange || !m_notice)
        return;
    const QString style = m_notice->styleSheet(); // its palette(alternate-base) is resolved when polished
    m_notice->setStyleSheet(QString());
    m_notice->setStyleSheet(style);
    m_notice->clear(); // and its links take the palette's link colour when their text is set
    updateNotices();
}

} // namespace kforge
