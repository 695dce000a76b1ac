#pragma once
// Settings → Models: the language model endpoints (from presets or custom), their API keys (into the
// system keychain, never into the settings file) and the defaults for new rounds.
#include "core/llm/endpointconfig.h"
#include "views/settings/settingspage.h"

#include <QMap>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace kforge {

class Credentials;

class EndpointsPage : public SettingsPage
{
    Q_OBJECT
public:
    explicit EndpointsPage(QWidget *parent = nullptr);

    QString title() const override;
    QIcon icon() const override;
    void load(const Settings &settings) override;
    void apply(Settings &settings) override;
    void restoreDefaults() override;

    QList<EndpointConfig> endpoints() const { return m_endpoints; }
    // Adds an endpoint made from a preset (see EndpointPresets) and selects it.
    void addFromPreset(const QString &presetId);
    void removeCurrent();
    QListWidget *list() const { return m_list; }
    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *urlEdit() const { return m_url; }
    QLineEdit *modelEdit() const { return m_model; }
    QLineEdit *keyEdit() const { return m_key; }

Q_SIGNALS:
    // A keychain write finished; error is empty on success.
    void keyStored(const QString &entry, const QString &error);

private:
    void showCurrent();
    void storeForm();
    QString uniqueId(const QString &base) const;

    QList<EndpointConfig> m_endpoints;
    QMap<QString, QString> m_pendingKeys; // keychain entry -> key typed in this dialog
    int m_current = -1;
    bool m_showing = false;

    QListWidget *m_list = nullptr;
    QPushButton *m_remove = nullptr;
    QWidget *m_form = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_url = nullptr;
    QComboBox *m_protocol = nullptr;
    QLineEdit *m_model = nullptr;
    QLineEdit *m_keyEnv = nullptr;
    QLineEdit *m_key = nullptr;
    QSpinBox *m_candidates = nullptr;
    QSpinBox *m_exemplars = nullptr;
    QDoubleSpinBox *m_temperature = nullptr;
    Credentials *m_credentials = nullptr;
};

} // namespace kforge
