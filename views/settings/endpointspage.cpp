#include "views/settings/endpointspage.h"

#include "core/llm/credentials.h"
#include "core/llm/endpointpresets.h"
#include "core/settings/settings.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QFrame>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
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
    m_keyStore = new QComboBox(m_form);
    m_keyStore->addItem(tr("System keychain"), false);
    m_keyStore->addItem(tr("A file readable only by you"), true);
    m_keyStore->setToolTip(tr("Where a key typed here is kept when you apply. The file (mode 0600) is not encrypted: "
                              "anyone who can read your files as you, or your backups, can read the key. Use it where "
                              "no keychain service runs (headless machines, VNC, WSL, many tiling desktops)."));
    if (!Credentials::keychainAvailable()) {
        m_keyStore->setCurrentIndex(1);
        m_keyStore->setEnabled(false);
    }
    m_keyStatus = new QLabel(m_form);
    m_keyStatus->setObjectName(QStringLiteral("keyStatus"));
    m_keyStatus->setWordWrap(true);
    m_keyStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // A failed store, said where the user pressed Apply, with the two ways out.
    m_problem = new QFrame(this);
    m_problem->setObjectName(QStringLiteral("keyProblem"));
    m_problem->setFrameShape(QFrame::StyledPanel);
    updateProblemColours();
    auto *problemIcon = new QLabel(m_problem);
    const int iconSize = style()->pixelMetric(QStyle::PM_MessageBoxIconSize);
    problemIcon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(iconSize, iconSize));
    problemIcon->setAlignment(Qt::AlignTop);
    m_problemText = new QLabel(m_problem);
    m_problemText->setWordWrap(true);
    m_problemText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_keepInFile = new QPushButton(tr("Keep It in That &File"), m_problem);
    auto *problemRight = new QVBoxLayout;
    problemRight->addWidget(m_problemText);
    problemRight->addWidget(m_keepInFile, 0, Qt::AlignLeft);
    auto *problemLayout = new QHBoxLayout(m_problem);
    problemLayout->addWidget(problemIcon, 0, Qt::AlignTop);
    problemLayout->addLayout(problemRight, 1);
    m_problem->hide();
    auto *form = new QFormLayout(m_form);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("Base &URL:"), m_url);
    form->addRow(tr("&Protocol:"), m_protocol);
    form->addRow(tr("&Model:"), m_model);
    form->addRow(tr("Key &variable:"), m_keyEnv);
    form->addRow(tr("API &key:"), m_key);
    form->addRow(tr("Keep &it in:"), m_keyStore);
    form->addRow(QString(), m_keyStatus);

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
    layout->addWidget(m_problem); // the page's full width: the message must be read whole
    layout->addWidget(rounds);

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        m_current = row;
        showCurrent();
    });
    connect(m_remove, &QPushButton::clicked, this, &EndpointsPage::removeCurrent);
    for (QLineEdit *edit : {m_name, m_url, m_model, m_keyEnv, m_key})
        connect(edit, &QLineEdit::textEdited, this, &EndpointsPage::storeForm);
    connect(m_protocol, &QComboBox::currentIndexChanged, this, &EndpointsPage::storeForm);
    connect(m_keyStore, &QComboBox::currentIndexChanged, this, &EndpointsPage::storeForm);
    connect(m_keepInFile, &QPushButton::clicked, this, &EndpointsPage::keepFailedKeyInFile);
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
    m_toFile.clear();
    m_keychainRead.clear();
    m_checking.clear();
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
    m_applyFailed = false;
    for (auto it = m_pendingKeys.cbegin(); it != m_pendingKeys.cend(); ++it) {
        const QString entry = it.key();
        const QString key = it.value();
        m_keychainRead.remove(entry);
        if (m_toFile.contains(entry) || !Credentials::keychainAvailable()) {
            const QString error = Credentials::writeKeyFile(entry, key);
            if (!error.isEmpty()) {
                m_applyFailed = true;
                m_failedEntry = entry;
                m_failedKey = key;
                if (const EndpointConfig *e = endpointOfEntry(entry))
                    showKeyProblem(*e, error);
            }
            // Answered from the event loop, as a keychain store is.
            QMetaObject::invokeMethod(
                this, [this, entry, error] { Q_EMIT keyStored(entry, error); }, Qt::QueuedConnection);
            continue;
        }
        ++m_writesPending;
        m_credentials->writeKey(entry, key, this, [this, entry, key](const QString &error) {
            --m_writesPending;
            if (!error.isEmpty()) {
                m_applyFailed = true;
                // Kept (in memory only) so that "keep it in a file" needs no retyping.
                m_failedEntry = entry;
                m_failedKey = key;
                m_keychainRead.insert(entry, error);
                if (const EndpointConfig *e = endpointOfEntry(entry)) {
                    m_list->setCurrentRow(int(e - m_endpoints.constData()));
                    showKeyProblem(*e, error);
                }
            } else {
                m_keychainRead.insert(entry, QString());
            }
            updateKeyStatus();
            Q_EMIT keyStored(entry, error);
        });
    }
    m_pendingKeys.clear();
    // The field shows where the key went (its placeholder), not the typed key still waiting to be stored again.
    m_showing = true;
    m_key->clear();
    m_showing = false;
    updateKeyStatus();
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
        const bool toFile = !Credentials::keychainAvailable() || m_toFile.contains(e.keychainEntry)
                            || (!m_pendingKeys.contains(e.keychainEntry) && Credentials::hasKeyFile(e.keychainEntry));
        m_keyStore->setCurrentIndex(toFile ? 1 : 0);
    } else {
        for (QLineEdit *edit : {m_name, m_url, m_model, m_keyEnv, m_key})
            edit->clear();
    }
    m_problem->setVisible(valid && m_endpoints[m_current].keychainEntry == m_failedEntry && !m_failedEntry.isEmpty());
    m_showing = false;
    updateKeyStatus();
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
        e.requiresKey = true; // demanded only from a remote service (EndpointConfig::needsKey)
    } else {
        m_pendingKeys.remove(e.keychainEntry);
    }
    if (m_keyStore->currentData().toBool())
        m_toFile.insert(e.keychainEntry);
    else
        m_toFile.remove(e.keychainEntry);
    if (QListWidgetItem *item = m_list->item(m_current))
        item->setText(e.displayName.isEmpty() ? e.id : e.displayName);
    updateKeyStatus();
}

const EndpointConfig *EndpointsPage::endpointOfEntry(const QString &entry) const
{
    for (const EndpointConfig &e : m_endpoints)
        if (e.keychainEntry == entry)
            return &e;
    return nullptr;
}

QString EndpointsPage::keyStatus() const
{
    return m_keyStatus->text();
}

QString EndpointsPage::keyProblem() const
{
    return m_problem->isHidden() ? QString() : m_problemText->text();
}

void EndpointsPage::checkKeychain(const QString &entry)
{
    // Whether the keychain really holds the key: after a failed store (or none) it must not be claimed.
    m_checking.insert(entry);
    m_credentials->readKey(entry, this, [this, entry](const ApiKeyLookup &found) {
        m_checking.remove(entry);
        m_keychainRead.insert(entry, found.found() ? QString() : found.error.isEmpty() ? tr("empty") : found.error);
        updateKeyStatus();
    });
}

void EndpointsPage::updateKeyStatus()
{
    const bool valid = m_current >= 0 && m_current < m_endpoints.size();
    if (!valid) {
        m_keyStatus->clear();
        m_key->setPlaceholderText(QString());
        return;
    }
    const EndpointConfig &e = m_endpoints[m_current];
    const QString entry = e.keychainEntry;
    const QString file = QDir::toNativeSeparators(Credentials::keyFilePath(entry));
    const bool toFile = m_keyStore->currentData().toBool();
    QString status;
    QString placeholder;
    if (m_pendingKeys.contains(entry)) {
        status = toFile
                     ? tr("The key you typed goes into %1 (readable only by you, not encrypted) when you apply.").arg(file)
                     : tr("The key you typed goes into the system keychain when you apply.");
    } else if (const QString env = Credentials::fromEnvironment(e.apiKeyEnv); !env.isEmpty()) {
        status = tr("The key comes from the environment variable %1, which comes before a stored key.").arg(e.apiKeyEnv);
        placeholder = tr("Unchanged (from the environment variable %1)").arg(e.apiKeyEnv);
    } else if (Credentials::hasKeyFile(entry)) {
        status = tr("Kept in %1, readable only by you (not encrypted).").arg(file);
        placeholder = tr("Unchanged (kept in a file readable only by you)");
    } else if (!Credentials::keychainAvailable() || entry.isEmpty()) {
        status = e.isLocal() ? tr("No key stored: none is needed for a server on this machine.") : tr("No key stored.");
    } else if (m_checking.contains(entry) || !m_keychainRead.contains(entry)) {
        if (!m_checking.contains(entry))
            checkKeychain(entry);
        status = tr("Checking the system keychain…");
    } else if (const QString why = m_keychainRead.value(entry); why.isEmpty()) {
        status = tr("Kept in the system keychain.");
        placeholder = tr("Unchanged (kept in the system keychain)");
    } else {
        status = tr("No key in the system keychain (%1).").arg(why);
        if (e.isLocal())
            status += u' ' + tr("None is needed for a server on this machine.");
    }
    if (placeholder.isEmpty())
        placeholder = e.isLocal() ? tr("Optional for a server on this machine") : tr("Not stored: type the key");
    m_keyStatus->setText(status);
    // The failure's message below says it all, and the form keeps its height.
    m_keyStatus->setVisible(m_problem->isHidden());
    m_key->setPlaceholderText(placeholder);
}

void EndpointsPage::showKeyProblem(const EndpointConfig &e, const QString &error)
{
    const QString name = e.displayName.isEmpty() ? e.id : e.displayName;
    QString variable = e.apiKeyEnv;
    if (variable.isEmpty()) {
        variable = e.id.toUpper() + QStringLiteral("_API_KEY");
        variable.replace(u'-', u'_');
    }
    m_problemText->setText(
        tr("The API key of %1 was not stored: %2. It is not saved anywhere yet; is a keychain service running? "
           "Headless machines, VNC, WSL and many tiling desktops have none.\n"
           "Either set the environment variable %3 to the key before you start KForge (and enter that name under Key "
           "variable), or keep the key in %4, a file only you can read. That file is not encrypted: anyone who can "
           "read your files as you, or your backups, can read the key.")
            .arg(name, error, variable, QDir::toNativeSeparators(Credentials::keyFilePath(e.keychainEntry))));
    m_problem->show();
    m_keyStatus->hide();
}

void EndpointsPage::keepFailedKeyInFile()
{
    if (m_failedEntry.isEmpty())
        return;
    const QString entry = m_failedEntry;
    const QString error = Credentials::writeKeyFile(entry, m_failedKey);
    if (!error.isEmpty()) {
        if (const EndpointConfig *e = endpointOfEntry(entry))
            showKeyProblem(*e, error);
        Q_EMIT keyStored(entry, error);
        return;
    }
    m_problem->hide();
    m_failedEntry.clear();
    m_failedKey.clear();
    m_toFile.insert(entry);
    m_problem->hide();
    if (m_current >= 0 && m_current < m_endpoints.size() && m_endpoints[m_current].keychainEntry == entry)
        m_keyStore->setCurrentIndex(1);
    updateKeyStatus();
    Q_EMIT keyStored(entry, QString());
}

void EndpointsPage::updateProblemColours()
{
    // The notice bar's warm "attention" colours, on light and dark palettes alike.
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const QString style = dark ? QStringLiteral("QFrame#keyProblem { background: #5c4a1a; border: 1px solid #8a702a; }")
                               : QStringLiteral("QFrame#keyProblem { background: #fff4ce; border: 1px solid #e6c25a; }");
    if (m_problem->styleSheet() != style)
        m_problem->setStyleSheet(style);
}

void EndpointsPage::changeEvent(QEvent *event)
{
    SettingsPage::changeEvent(event);
    // A theme switched with the dialog open (Settings → General, Apply): the light box would keep the dark theme's
    // light text on it, and the dark one the light theme's black text.
    if (event->type() == QEvent::PaletteChange && m_problem)
        updateProblemColours();
}

} // namespace kforge
