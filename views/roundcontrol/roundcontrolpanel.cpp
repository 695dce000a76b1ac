#include "views/roundcontrol/roundcontrolpanel.h"
#include "core/llm/credentials.h"
#include "core/llm/llmrequest.h"
#include "core/optimizer/exemplarsampler.h"
#include "core/optimizer/promptbuilder.h"
#include "core/optimizer/roundrunner.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/worker/evaluator.h"
#include "core/worker/readinesswatch.h"
#include "views/roundcontrol/roundprogressmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
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
    , m_progress(new RoundProgressModel(store, runner, this))
{
    m_notice = new QLabel(this);
    m_notice->setObjectName(QStringLiteral("notice"));
    m_notice->setWordWrap(true);
    m_notice->setTextFormat(Qt::RichText);
    m_notice->setStyleSheet(QStringLiteral("QLabel#notice { background: palette(alternate-base); padding: 6px; "
                                           "border-left: 3px solid #d35400; }"));
    connect(m_notice, &QLabel::linkActivated, this, &RoundControlPanel::settingsRequested);

    // ---- model
    m_endpoint = new QComboBox(this);
    m_endpoint->setToolTip(tr("The service that answers (Settings → Models)"));
    m_model = new QComboBox(this);
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->setToolTip(tr("Model name as the endpoint knows it"));
    m_temperature = new QDoubleSpinBox(this);
    m_temperature->setRange(0.0, 2.0);
    m_temperature->setSingleStep(0.1);
    m_temperature->setDecimals(2);
    auto *modelBox = new QGroupBox(tr("Model"), this);
    auto *modelForm = new QFormLayout(modelBox);
    modelForm->addRow(tr("Endpoint:"), m_endpoint);
    modelForm->addRow(tr("Model:"), m_model);
    modelForm->addRow(tr("Temperature:"), m_temperature);

    // ---- round
    m_candidates = new QSpinBox(this);
    m_candidates->setRange(1, 64);
    m_candidates->setToolTip(tr("Answers asked for per round, sent concurrently"));
    m_exemplars = new QSpinBox(this);
    m_exemplars->setRange(1, 8);
    m_exemplars->setToolTip(tr("Measured variants shown to the model in the prompt (K)"));
    m_strategy = new QComboBox(this);
    m_strategy->addItem(tr("Speedup buckets"), int(SamplingStrategy::Buckets));
    m_strategy->addItem(tr("Fastest"), int(SamplingStrategy::TopK));
    m_strategy->addItem(tr("Most different"), int(SamplingStrategy::MostDifferent));
    m_strategy->setToolTip(tr("How exemplars are chosen; pinned variants are always shown, excluded ones never"));
    m_exemplarMode = new QComboBox(this);
    m_exemplarMode->addItem(tr("Automatic"), int(ExemplarMode::Auto));
    m_exemplarMode->addItem(tr("Per candidate"), int(ExemplarMode::PerCandidate));
    m_exemplarMode->addItem(tr("One prompt per round"), int(ExemplarMode::PerRound));
    m_exemplarMode->setToolTip(tr("Per candidate: each candidate draws its own exemplars, the best variant so far "
                                  "always among them. Automatic: per candidate when there are more correct "
                                  "variants than exemplar slots."));
    m_repairs = new QSpinBox(this);
    m_repairs->setRange(0, 5);
    m_repairs->setValue(1);
    m_repairs->setToolTip(tr("How often a candidate that fails to compile or verify is sent back with the diagnostics"));
    m_hint = new QPlainTextEdit(this);
    m_hint->setPlaceholderText(tr("A hint for the model, e.g. “try vectorized loads”"));
    m_hint->setMaximumHeight(m_hint->fontMetrics().height() * 4);
    m_hint->setTabChangesFocus(true);
    m_review = new QCheckBox(tr("Review the prompt before it is sent"), this);
    auto *roundBox = new QGroupBox(tr("Round"), this);
    auto *roundForm = new QFormLayout(roundBox);
    roundForm->addRow(tr("Candidates:"), m_candidates);
    roundForm->addRow(tr("Exemplars:"), m_exemplars);
    roundForm->addRow(tr("Chosen by:"), m_strategy);
    roundForm->addRow(tr("Drawn:"), m_exemplarMode);
    roundForm->addRow(tr("Repair attempts:"), m_repairs);
    roundForm->addRow(tr("Hint:"), m_hint);
    roundForm->addRow(m_review);

    // ---- actions
    m_preview = new QPushButton(tr("Preview Prompt"), this);
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

    // ---- prompt
    m_promptLabel = new QLabel(tr("Prompt"), this);
    m_promptLabel->setWordWrap(true);
    m_promptChoice = new QComboBox(this);
    m_promptChoice->setToolTip(tr("Each candidate has its own prompt: choose which one to read"));
    m_promptChoice->hide();
    m_prompt = new QPlainTextEdit(this);
    m_prompt->setReadOnly(true);
    m_prompt->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_prompt->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_prompt->setPlaceholderText(tr("Preview the prompt, or turn on review to edit it before a round sends it."));
    m_approval = new QWidget(this);
    auto *send = new QPushButton(tr("Send"), m_approval);
    send->setObjectName(QStringLiteral("send"));
    auto *discard = new QPushButton(tr("Discard"), m_approval);
    auto *approvalLayout = new QHBoxLayout(m_approval);
    approvalLayout->setContentsMargins(0, 0, 0, 0);
    approvalLayout->addStretch(1);
    approvalLayout->addWidget(discard);
    approvalLayout->addWidget(send);
    m_approval->hide();
    auto *promptBox = new QWidget(this);
    auto *promptLayout = new QVBoxLayout(promptBox);
    promptLayout->setContentsMargins(0, 0, 0, 0);
    promptLayout->addWidget(m_promptLabel);
    promptLayout->addWidget(m_promptChoice);
    promptLayout->addWidget(m_prompt, 1);
    promptLayout->addWidget(m_approval);

    // ---- progress
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_roundBar = new QProgressBar(this);
    m_roundBar->setFormat(tr("%v of %m candidates done"));
    m_progressView = new QTableView(this);
    m_progressView->setModel(m_progress);
    m_progressView->verticalHeader()->hide();
    m_progressView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_progressView->verticalHeader()->setDefaultSectionSize(m_progressView->fontMetrics().height() + 6);
    m_progressView->horizontalHeader()->setSectionResizeMode(RoundProgressModel::Stage, QHeaderView::Stretch);
    m_progressView->horizontalHeader()->setSectionResizeMode(RoundProgressModel::Exemplars, QHeaderView::ResizeToContents);
    m_progressView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_progressView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_progressView->setToolTip(tr("Choose a candidate to read the prompt it received"));
    m_usage = new QLabel(this);
    m_usage->setWordWrap(true); // a long line of counts must not widen the dock (and the window)
    auto *progressBox = new QWidget(this);
    auto *progressLayout = new QVBoxLayout(progressBox);
    progressLayout->setContentsMargins(0, 0, 0, 0);
    progressLayout->addWidget(m_status);
    progressLayout->addWidget(m_roundBar);
    progressLayout->addWidget(m_progressView, 1);
    progressLayout->addWidget(m_usage);

    // One above the other: side by side, the two boxes would make the dock (and the window) at least as wide
    // as both, which the default layout's column next to the editor is not.
    auto *settingsRow = new QVBoxLayout;
    settingsRow->addWidget(modelBox);
    settingsRow->addWidget(roundBox);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(progressBox);
    m_splitter->addWidget(promptBox);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_notice);
    layout->addLayout(settingsRow);
    layout->addLayout(buttons);
    layout->addWidget(m_splitter, 1);

    if (m_settings) {
        m_candidates->setValue(m_settings->candidatesPerRound());
        m_exemplars->setValue(m_settings->exemplars());
        m_temperature->setValue(m_settings->temperature());
        connect(m_settings, &Settings::endpointsChanged, this, &RoundControlPanel::reloadEndpoints);
        connect(m_settings, &Settings::workersChanged, this, &RoundControlPanel::updateNotices);
    } else {
        m_candidates->setValue(Settings::Defaults::candidatesPerRound);
        m_exemplars->setValue(Settings::Defaults::exemplars);
        m_temperature->setValue(Settings::Defaults::temperature);
    }
    reloadEndpoints();

    connect(m_endpoint, &QComboBox::currentIndexChanged, this, [this] {
        updateModels();
        applyRequestTemplate();
        updateButtons();
    });
    connect(m_model, &QComboBox::currentTextChanged, this, [this] { applyRequestTemplate(); });
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, [this] { applyRequestTemplate(); });
    connect(m_candidates, &QSpinBox::valueChanged, this, &RoundControlPanel::updateProgress);
    connect(m_preview, &QPushButton::clicked, this, &RoundControlPanel::previewPrompt);
    connect(m_start, &QPushButton::clicked, this, &RoundControlPanel::start);
    connect(m_pause, &QPushButton::clicked, this, &RoundControlPanel::pauseOrResume);
    connect(m_stopButton, &QPushButton::clicked, this, &RoundControlPanel::stop);
    connect(send, &QPushButton::clicked, this, &RoundControlPanel::sendPrompt);
    connect(discard, &QPushButton::clicked, this, &RoundControlPanel::discardPrompt);
    connect(m_resume, &QPushButton::clicked, this, [this] {
        if (!m_store || !m_runner || m_store->interruptedRounds().isEmpty())
            return;
        applyRequestTemplate([this](bool ok) {
            if (!ok || !m_store || !m_runner)
                return;
            for (qint64 id : m_store->interruptedRounds()) {
                const auto r = m_store->round(id);
                if (r && r->state == RoundState::Interrupted) {
                    if (!m_runner->resume(id))
                        setStatus(m_runner->errorString());
                    return;
                }
            }
            setStatus(tr("No interrupted round is left to resume."));
        });
    });
    connect(m_progress, &RoundProgressModel::progressChanged, this, &RoundControlPanel::updateProgress);
    connect(m_progressView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    showCandidatePrompt(current.row());
            });
    connect(m_promptChoice, &QComboBox::currentIndexChanged, this, &RoundControlPanel::onPromptChosen);

    setReadinessWatch(new ReadinessWatch(m_runner ? m_runner->evaluator() : nullptr, m_settings, this));
    if (m_runner) {
        connect(m_runner, &RoundRunner::stateChanged, this, [this] {
            updateButtons();
            updateProgress();
        });
        connect(m_runner, &RoundRunner::promptReady, this, &RoundControlPanel::onPromptReady);
        connect(m_runner, &RoundRunner::roundStarted, this, [this](qint64) {
            m_starting = false;
            updateButtons();
            updateProgress();
            updateUsage();
        });
        connect(m_runner, &RoundRunner::roundFinished, this,
                [this](qint64 roundId, RoundState state, const QString &message) {
                    m_approval->hide();
                    m_prompt->setReadOnly(true);
                    m_choiceEditable = false;
                    const int number = m_store ? m_store->round(roundId).value_or(RoundRecord{}).number : 0;
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
    if (m_store) {
        for (auto signal : {&SessionStore::opened, &SessionStore::closed, &SessionStore::taskChanged})
            connect(m_store, signal, this, [this] {
                updateNotices();
                updateButtons();
                updateUsage();
            });
        connect(m_store, &SessionStore::roundChanged, this, [this] {
            updateUsage();
            updateButtons();
        });
    }
    updateNotices();
    updateButtons();
    updateProgress();
    updateUsage();
    applyRequestTemplate();
}

RoundControlPanel::~RoundControlPanel() = default;

void RoundControlPanel::setCredentials(Credentials *credentials)
{
    m_credentials = credentials;
}

void RoundControlPanel::reloadEndpoints()
{
    const QString current = m_endpoint->currentData().toString();
    const QSignalBlocker block(m_endpoint);
    m_endpoint->clear();
    const QList<EndpointConfig> endpoints = m_settings ? m_settings->endpoints() : QList<EndpointConfig>{};
    for (const EndpointConfig &e : endpoints)
        m_endpoint->addItem(e.displayName.isEmpty() ? e.id : e.displayName, e.id);
    const int keep = m_endpoint->findData(current);
    m_endpoint->setCurrentIndex(keep >= 0 ? keep : (endpoints.isEmpty() ? -1 : 0));
    m_endpoint->setEnabled(!endpoints.isEmpty());
    updateModels();
    updateNotices();
    updateButtons();
    applyRequestTemplate();
}

std::optional<EndpointConfig> RoundControlPanel::selectedEndpoint() const
{
    if (!m_settings || m_endpoint->currentIndex() < 0)
        return std::nullopt;
    const QString id = m_endpoint->currentData().toString();
    for (const EndpointConfig &e : m_settings->endpoints())
        if (e.id == id)
            return e;
    return std::nullopt;
}

void RoundControlPanel::updateModels()
{
    const auto ep = selectedEndpoint();
    const QString typed = m_model->currentText();
    const QSignalBlocker block(m_model);
    const QString previousDefault = m_model->count() > 0 ? m_model->itemText(0) : QString();
    m_model->clear();
    if (ep && !ep->defaultModel.isEmpty())
        m_model->addItem(ep->defaultModel);
    // The user's own model name survives a change of endpoint; the old default does not.
    if (!typed.isEmpty() && typed != previousDefault)
        m_model->setEditText(typed);
    else
        m_model->setEditText(ep ? ep->defaultModel : QString());
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

void RoundControlPanel::saveDefaults()
{
    if (!m_settings)
        return;
    m_settings->setCandidatesPerRound(m_candidates->value());
    m_settings->setExemplars(m_exemplars->value());
    m_settings->setTemperature(m_temperature->value());
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
            if (const auto r = m_store->round(id); r && r->state == RoundState::Interrupted)
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
        const int number = m_store ? m_store->round(round).value_or(RoundRecord{}).number : 0;
        setStatus(tr("Round %1: %2").arg(number).arg(stateText(state)));
    }
    int total = std::max(m_progress->rowCount(), 0);
    if (m_store && round)
        if (const auto r = m_store->round(round))
            total = std::max(total, r->settings.value(QLatin1String("candidates")).toInt());
    if (!round)
        total = m_candidates->value();
    m_roundBar->setMaximum(std::max(total, 1));
    m_roundBar->setValue(round ? m_progress->finishedCount() : 0);
}

void RoundControlPanel::updateUsage()
{
    if (!m_store || !m_store->isOpen()) {
        m_usage->clear();
        return;
    }
    const RoundUsage session = m_store->sessionUsage();
    const qint64 roundId = m_progress->round();
    const RoundUsage round = roundId ? m_store->round(roundId).value_or(RoundRecord{}).usage : RoundUsage{};
    const QLocale l;
    m_usage->setText(tr("Tokens: %1 this round, %2 in the session (%3 requests) · cost %4 this round, %5 in the session")
                         .arg(l.toString(round.totalTokens()), l.toString(session.totalTokens()))
                         .arg(session.requests)
                         .arg(money(round.cost), money(session.cost)));
}

RoundSettings RoundControlPanel::roundSettings() const
{
    RoundSettings s;
    s.candidates = m_candidates->value();
    s.sampler.count = m_exemplars->value();
    s.sampler.strategy = SamplingStrategy(m_strategy->currentData().toInt());
    s.exemplarMode = ExemplarMode(m_exemplarMode->currentData().toInt());
    s.repairAttempts = m_repairs->value();
    s.hint = m_hint->toPlainText().trimmed();
    if (m_settings)
        s.evalOptions = EvalOptions::fromSettings(m_settings->timing());
    if (const auto ep = selectedEndpoint())
        s.endpoint = ep->id;
    s.model = m_model->currentText().trimmed();
    return s;
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
    const quint64 job = ++m_keyJob;
    m_credentials->lookup(*ep, this, [this, job, ep = *ep, then = std::move(then)](const ApiKeyLookup &key) {
        if (job != m_keyJob)
            return; // a newer lookup replaced this one and delivers instead
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
        r.model = m_model->currentText().trimmed();
        r.temperature = m_temperature->value();
        r.apiKey = key.key;
        m_runner->setRequestTemplate(r);
        if (then)
            then(true);
    });
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
    saveDefaults();
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
        m_runner->setPromptReview(m_review->isChecked());
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
    if (!m_approval->isVisible()) {
        showPrompts(prompts, false);
        m_promptLabel->setText(note);
    }
    return true;
}

bool RoundControlPanel::showCandidatePrompt(int row)
{
    if (!m_store || m_approval->isVisible() || row < 0 || row >= m_progress->rowCount())
        return false;
    const QModelIndex index = m_progress->index(row, RoundProgressModel::Candidate);
    const auto prompt = m_store->prompt(index.data(RoundProgressModel::PromptIdRole).toLongLong());
    if (!prompt)
        return false;
    showPrompts({CandidatePrompts::Prompt{prompt->exemplarIds, prompt->rendered, prompt->id}}, false);
    const QString exemplars = RoundProgressModel::exemplarText(m_store, prompt->exemplarIds);
    m_promptLabel->setText(prompt->kind == QLatin1String("repair")
                               ? tr("The prompt %1 received").arg(index.data().toString())
                               : tr("The prompt %1 received; exemplars %2").arg(index.data().toString(), exemplars));
    return true;
}

void RoundControlPanel::showPrompts(const QList<CandidatePrompts::Prompt> &prompts, bool editable)
{
    m_choiceTexts.clear();
    m_choiceShown = -1;
    m_choiceEditable = editable;
    {
        const QSignalBlocker block(m_promptChoice);
        m_promptChoice->clear();
        for (int i = 0; i < prompts.size(); ++i) {
            m_choiceTexts << prompts[i].text;
            m_promptChoice->addItem(tr("Candidate %1 of %2: exemplars %3")
                                        .arg(i + 1)
                                        .arg(prompts.size())
                                        .arg(RoundProgressModel::exemplarText(m_store, prompts[i].exemplars)));
        }
    }
    m_promptChoice->setVisible(prompts.size() > 1);
    m_prompt->setReadOnly(!editable);
    if (!prompts.isEmpty()) {
        m_choiceShown = 0;
        m_prompt->setPlainText(prompts.constFirst().text);
    }
}

void RoundControlPanel::onPromptChosen(int index)
{
    if (index < 0 || index >= m_choiceTexts.size() || index == m_choiceShown)
        return;
    if (m_choiceEditable && m_choiceShown >= 0)
        m_choiceTexts[m_choiceShown] = m_prompt->toPlainText(); // an edit survives looking at another prompt
    m_choiceShown = index;
    m_prompt->setPlainText(m_choiceTexts[index]);
}

void RoundControlPanel::onPromptReady(qint64, const QString &prompt)
{
    QList<CandidatePrompts::Prompt> prompts = m_runner ? m_runner->candidatePrompts().prompts()
                                                       : QList<CandidatePrompts::Prompt>{};
    if (prompts.isEmpty())
        prompts << CandidatePrompts::Prompt{{}, prompt, 0};
    showPrompts(prompts, true);
    m_promptLabel->setText(prompts.size() > 1
                               ? tr("Review the prompts (one per candidate); edit any of them if you like, then Send.")
                               : tr("Review the prompt; edit it if you like, then Send."));
    m_approval->show();
    // The prompt is what needs reading now: give it most of the room.
    const int total = m_splitter->height();
    m_splitter->setSizes({total / 4, total - total / 4});
    m_prompt->setFocus();
}

void RoundControlPanel::sendPrompt()
{
    if (!m_runner || m_runner->state() != RoundRunner::State::AwaitingApproval)
        return;
    m_approval->hide();
    m_prompt->setReadOnly(true);
    m_promptLabel->setText(m_choiceTexts.size() > 1 ? tr("Sent prompts") : tr("Sent prompt"));
    const int total = m_splitter->height();
    m_splitter->setSizes({total * 2 / 3, total - total * 2 / 3});
    if (m_choiceShown >= 0 && m_choiceShown < m_choiceTexts.size())
        m_choiceTexts[m_choiceShown] = m_prompt->toPlainText();
    m_choiceEditable = false;
    m_runner->approvePrompts(m_choiceTexts);
}

void RoundControlPanel::discardPrompt()
{
    if (!m_runner || m_runner->state() != RoundRunner::State::AwaitingApproval)
        return;
    m_approval->hide();
    m_prompt->setReadOnly(true);
    m_runner->rejectPrompt();
}

} // namespace kforge
