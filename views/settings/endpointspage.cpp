#include "views/settings/endpointspage.h"

#include "core/llm/credentials.h"
#include "core/llm/endpointpresets.h"
#include "core/settings/settings.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

namespace kforge {

EndpointsPage::EndpointsPage(QWidget *parent)
    : SettingsPage(parent)
{
    m_credentials = new Credentials(this);

    m_list = new QListWidget(this);
    m_list->setMinimumWidth(160);
    auto *add = new QPushButton(tr("&Add"), this);
    auto *presets = new QMenu(add);
    for (const EndpointConfig &preset : EndpointPresets::all()) {
        const QString id = preset.presetId;
        presets->addAction(preset.displayName, this, [this, id] { addFromPreset(id); });
    }
    add->setMenu(presets);
    m_remove = new QPushButton(tr("&Remove"), this);
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(add);
    listButtons->addWidget(m_remove);
    auto *left = new QVBoxLayout;
    left->addWidget(m_list, 1);
    left->addLayout(listButtons);

    m_form = new QWidget(this);
    m_name = new QLineEdit(m_form);
    m_url = new QLineEdit(m_form);
    m_url->setPlaceholderText(QStringLiteral("https://api.example.com/v1"));
    m_protocol = new QComboBox(m_form);
    m_protocol->addItem(tr("OpenAI-compatible (chat completions)"), int(LlmProtocol::OpenAi));
    m_protocol->addItem(tr("Anthropic (messages)"), int(LlmProtocol::Anthropic));
    m_model = new QLineEdit(m_form);
    m_keyEnv = new QLineEdit(m_form);
    m_keyEnv->setPlaceholderText(QStringLiteral("OPENAI_API_KEY"));
    m_keyEnv->setToolTip(tr("When this environment variable is set, its value is used as the API key."));
    m_key = new QLineEdit(m_form);
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setClearButtonEnabled(true);
    if (Credentials::keychainAvailable()) {
        m_key->setPlaceholderText(tr("Unchanged (kept in the system keychain)"));
        m_key->setToolTip(tr("Stored in the system keychain when you apply, never in KForge's settings file."));
    } else {
        m_key->setEnabled(false);
        m_key->setPlaceholderText(tr("No keychain support: use the environment variable"));
    }
    auto *form = new QFormLayout(m_form);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("Base &URL:"), m_url);
    form->addRow(tr("&Protocol:"), m_protocol);
    form->addRow(tr("&Model:"), m_model);
    form->addRow(tr("Key &variable:"), m_keyEnv);
    form->addRow(tr("API &key:"), m_key);

    auto *top = new QHBoxLayout;
    top->addLayout(left);
    top->addWidget(m_form, 1);

    auto *rounds = new QGroupBox(tr("New rounds"), this);
    m_candidates = new QSpinBox(rounds);
    m_candidates->setRange(1, 64);
    m_candidates->setToolTip(tr("How many kernels the model writes per round."));
    m_exemplars = new QSpinBox(rounds);
    m_exemplars->setRange(0, 16);
    m_exemplars->setToolTip(tr("How many earlier variants, with their measured speedups, the prompt shows."));
    m_temperature = new QDoubleSpinBox(rounds);
    m_temperature->setRange(0.0, 2.0);
    m_temperature->setSingleStep(0.1);
    m_temperature->setDecimals(2);
    auto *roundForm = new QFormLayout(rounds);
    roundForm->addRow(tr("&Candidates per round:"), m_candidates);
    roundForm->addRow(tr("&Exemplars:"), m_exemplars);
    roundForm->addRow(tr("&Temperature:"), m_temperature);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(rounds);

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        m_current = row;
        showCurrent();
    });
    connect(m_remove, &QPushButton::clicked, this, &EndpointsPage::removeCurrent);
    for (QLineEdit *edit : {m_name, m_url, m_model, m_keyEnv, m_key})
        connect(edit, &QLineEdit::textEdited, this, &EndpointsPage::storeForm);
    connect(m_protocol, &QComboBox::currentIndexChanged, this, &EndpointsPage::storeForm);
    showCurrent();
}

QString EndpointsPage::title() const
{
    return tr("Models");
}

QIcon EndpointsPage::icon() const
{
    return QIcon::fromTheme(QStringLiteral("network-workgroup"), style()->standardIcon(QStyle::SP_DriveNetIcon));
}

void EndpointsPage::load(const Settings &settings)
{
    m_endpoints = settings.endpoints();
    m_pendingKeys.clear();
    m_list->clear();
    for (const EndpointConfig &e : std::as_const(m_endpoints))
        m_list->addItem(e.displayName.isEmpty() ? e.id : e.displayName);
    m_list->setCurrentRow(m_endpoints.isEmpty() ? -1 : 0);
    m_candidates->setValue(settings.candidatesPerRound());
    m_exemplars->setValue(settings.exemplars());
    m_temperature->setValue(settings.temperature());
    showCurrent();
}

void EndpointsPage::apply(Settings &settings)
{
    settings.setEndpoints(m_endpoints);
    settings.setCandidatesPerRound(m_candidates->value());
    settings.setExemplars(m_exemplars->value());
    settings.setTemperature(m_temperature->value());
    for (auto it = m_pendingKeys.cbegin(); it != m_pendingKeys.cend(); ++it) {
        const QString entry = it.key();
        m_credentials->writeKey(entry, it.value(), this,
                                [this, entry](const QString &error) { Q_EMIT keyStored(entry, error); });
    }
    m_pendingKeys.clear();
}

void EndpointsPage::restoreDefaults()
{
    m_candidates->setValue(Settings::Defaults::candidatesPerRound);
    m_exemplars->setValue(Settings::Defaults::exemplars);
    m_temperature->setValue(Settings::Defaults::temperature);
}

QString EndpointsPage::uniqueId(const QString &base) const
{
    auto taken = [this](const QString &id) {
        return std::any_of(m_endpoints.begin(), m_endpoints.end(), [&](const EndpointConfig &e) { return e.id == id; });
    };
    QString id = base;
    for (int n = 2; taken(id); ++n)
        id = base + u'-' + QString::number(n);
    return id;
}

void EndpointsPage::addFromPreset(const QString &presetId)
{
    std::optional<EndpointConfig> preset = EndpointPresets::find(presetId);
    if (!preset)
        return;
    EndpointConfig e = *preset;
    e.id = uniqueId(e.presetId);
    e.keychainEntry = e.id;
    if (e.id != e.presetId)
        e.displayName += QStringLiteral(" (") + e.id + u')';
    m_endpoints.append(e);
    m_list->addItem(e.displayName);
    m_list->setCurrentRow(int(m_endpoints.size()) - 1);
    m_name->setFocus();
}

void EndpointsPage::removeCurrent()
{
    if (m_current < 0 || m_current >= m_endpoints.size())
        return;
    m_pendingKeys.remove(m_endpoints[m_current].keychainEntry);
    m_endpoints.removeAt(m_current);
    delete m_list->takeItem(m_current);
    m_current = m_list->currentRow();
    showCurrent();
}

void EndpointsPage::showCurrent()
{
    const bool valid = m_current >= 0 && m_current < m_endpoints.size();
    m_form->setEnabled(valid);
    m_remove->setEnabled(valid);
    m_showing = true;
    if (valid) {
        const EndpointConfig &e = m_endpoints[m_current];
        m_name->setText(e.displayName);
        m_url->setText(e.baseUrl);
        m_protocol->setCurrentIndex(std::max(0, m_protocol->findData(int(e.protocol))));
        m_model->setText(e.defaultModel);
        m_keyEnv->setText(e.apiKeyEnv);
        m_key->setText(m_pendingKeys.value(e.keychainEntry));
    } else {
        for (QLineEdit *edit : {m_name, m_url, m_model, m_keyEnv, m_key})
            edit->clear();
    }
    m_showing = false;
}

void EndpointsPage::storeForm()
{
    if (m_showing || m_current < 0 || m_current >= m_endpoints.size())
        return;
    EndpointConfig &e = m_endpoints[m_current];
    e.displayName = m_name->text().trimmed();
    e.baseUrl = m_url->text().trimmed();
    e.protocol = LlmProtocol(m_protocol->currentData().toInt());
    e.defaultModel = m_model->text().trimmed();
    e.apiKeyEnv = m_keyEnv->text().trimmed();
    if (e.keychainEntry.isEmpty())
        e.keychainEntry = e.id;
    if (!m_key->text().isEmpty()) {
        m_pendingKeys.insert(e.keychainEntry, m_key->text());
        e.requiresKey = true;
    } else {
        m_pendingKeys.remove(e.keychainEntry);
    }
    if (QListWidgetItem *item = m_list->item(m_current))
        item->setText(e.displayName.isEmpty() ? e.id : e.displayName);
}

} // namespace kforge
