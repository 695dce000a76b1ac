#pragma once
// Settings → Models: the language model endpoints (from presets or custom), their API keys (into the system
// keychain, or a file readable only by the user when there is no keychain service; never into the settings file)
// and the defaults for new rounds. Says where each key really is, and a failed store at once, with the fallbacks.
#include "core/llm/endpointconfig.h"
#include "views/settings/settingspage.h"

#include <QHash>
#include <QMap>
#include <QSet>

class QComboBox;
class QFrame;
class QLabel;
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
    QComboBox *keyStoreBox() const { return m_keyStore; }
    // Where the shown endpoint's key is, in words (the line under the key field).
    QString keyStatus() const;
    // The failed store's message with its fallbacks; empty while none is shown.
    QString keyProblem() const;
    QPushButton *keepInFileButton() const { return m_keepInFile; }
    // Keychain writes started by apply() and not answered yet.
    int keyWritesPending() const { return m_writesPending; }
    // Whether a key store of the last apply() failed (so far, while writes are pending).
    bool lastApplyFailed() const { return m_applyFailed; }
    // Writes the key whose keychain store failed into its key file instead (the fallback button).
    void keepFailedKeyInFile();

Q_SIGNALS:
    // A key store finished (keychain or file); error is empty on success. After a failure the page shows why and
    // the fallbacks; the dialog shows the page.
    void keyStored(const QString &entry, const QString &error);

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateProblemColours();
    void showCurrent();
    void updateKeyStatus();
    void checkKeychain(const QString &entry);
    void showKeyProblem(const EndpointConfig &endpoint, const QString &error);
    const EndpointConfig *endpointOfEntry(const QString &entry) const;
    void storeForm();
    QString uniqueId(const QString &base) const;

    QList<EndpointConfig> m_endpoints;
    QMap<QString, QString> m_pendingKeys;   // keychain entry -> key typed in this dialog
    QSet<QString> m_toFile;                 // entries whose next key goes into the key file
    QHash<QString, QString> m_keychainRead; // entry -> empty when the keychain holds a key, else why not
    QSet<QString> m_checking;               // entries being read from the keychain
    QString m_failedEntry, m_failedKey;     // the store that failed, kept for "keep it in a file"
    int m_writesPending = 0;
    bool m_applyFailed = false;
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
    QComboBox *m_keyStore = nullptr;
    QLabel *m_keyStatus = nullptr;
    QFrame *m_problem = nullptr;
    QLabel *m_problemText = nullptr;
    QPushButton *m_keepInFile = nullptr;
    QSpinBox *m_candidates = nullptr;
    QSpinBox *m_exemplars = nullptr;
    QDoubleSpinBox *m_temperature = nullptr;
    Credentials *m_credentials = nullptr;
};

} // namespace kforge
