#include "views/roundcontrol/roundsetuppage.h"
#include "core/optimizer/exemplarsampler.h"
#include "core/optimizer/roundsettings.h"
#include "core/settings/settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace kforge {

RoundSetupPage::RoundSetupPage(Settings *settings, QWidget *parent)
    : QScrollArea(parent)
    , m_settings(settings)
{
    // One above the other: side by side, the two boxes would make the dock (and the window) at least as wide
    // as both, which the default layout's column next to the editor is not. They scroll when the dock is short.
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(createModelBox());
    layout->addWidget(createRoundBox());
    layout->addStretch(1);
    setWidget(page);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    loadDefaults();
    reloadEndpoints();
    connect(m_endpoint, &QComboBox::currentIndexChanged, this, [this] {
        updateModels();
        Q_EMIT endpointChanged();
    });
    connect(m_model, &QComboBox::currentTextChanged, this, &RoundSetupPage::requestChanged);
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, &RoundSetupPage::requestChanged);
    connect(m_candidates, &QSpinBox::valueChanged, this, &RoundSetupPage::candidatesChanged);
    if (m_settings)
        connect(m_settings, &Settings::endpointsChanged, this, &RoundSetupPage::reloadEndpoints);
}

QGroupBox *RoundSetupPage::createModelBox()
{
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
    auto *box = new QGroupBox(tr("Model"), this);
    auto *form = new QFormLayout(box);
    form->addRow(tr("Endpoint:"), m_endpoint);
    form->addRow(tr("Model:"), m_model);
    form->addRow(tr("Temperature:"), m_temperature);
    return box;
}

QGroupBox *RoundSetupPage::createRoundBox()
{
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
    auto *box = new QGroupBox(tr("Round"), this);
    auto *form = new QFormLayout(box);
    form->addRow(tr("Candidates:"), m_candidates);
    form->addRow(tr("Exemplars:"), m_exemplars);
    form->addRow(tr("Chosen by:"), m_strategy);
    form->addRow(tr("Drawn:"), m_exemplarMode);
    form->addRow(tr("Repair attempts:"), m_repairs);
    form->addRow(tr("Hint:"), m_hint);
    form->addRow(m_review);
    return box;
}

void RoundSetupPage::loadDefaults()
{
    m_candidates->setValue(m_settings ? m_settings->candidatesPerRound() : Settings::Defaults::candidatesPerRound);
    m_exemplars->setValue(m_settings ? m_settings->exemplars() : Settings::Defaults::exemplars);
    m_temperature->setValue(m_settings ? m_settings->temperature() : Settings::Defaults::temperature);
}

void RoundSetupPage::saveDefaults()
{
    if (!m_settings)
        return;
    m_settings->setCandidatesPerRound(m_candidates->value());
    m_settings->setExemplars(m_exemplars->value());
    m_settings->setTemperature(m_temperature->value());
}

void RoundSetupPage::reloadEndpoints()
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
    Q_EMIT endpointsReloaded();
}

std::optional<EndpointConfig> RoundSetupPage::selectedEndpoint() const
{
    if (!m_settings || m_endpoint->currentIndex() < 0)
        return std::nullopt;
    const QString id = m_endpoint->currentData().toString();
    for (const EndpointConfig &e : m_settings->endpoints())
        if (e.id == id)
            return e;
    return std::nullopt;
}

void RoundSetupPage::updateModels()
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

QString RoundSetupPage::modelName() const
{
    return m_model->currentText().trimmed();
}

double RoundSetupPage::temperature() const
{
    return m_temperature->value();
}

bool RoundSetupPage::reviewsPrompt() const
{
    return m_review->isChecked();
}

RoundSettings RoundSetupPage::roundSettings() const
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
    s.model = modelName();
    return s;
}

} // namespace kforge
