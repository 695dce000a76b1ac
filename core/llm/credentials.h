#pragma once
// API keys: read from the environment variable an endpoint names, from a key file the user chose (readable only by
// them, for machines without a keychain service) or from the system keychain (QtKeychain, service "KForge").
// Keychain access is asynchronous; answers come back through callbacks in the context's thread. Keys are never
// written anywhere else, and never into the settings file.
#include "core/llm/endpointconfig.h"

#include <QObject>
#include <QString>
#include <functional>

namespace kforge {

struct ApiKeyLookup {
    enum Source { None, Environment, File, Keychain };
    QString key;
    Source source = None;
    QString error; // translated; empty when found, or when no source was configured
    bool found() const { return !key.isEmpty(); }
};

class Credentials : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *kService = "KForge";

    explicit Credentials(QObject *parent = nullptr);

    static bool keychainAvailable(); // built with QtKeychain
    static QString fromEnvironment(const QString &variable);

    // The key file of a keychain entry: <config>/keys/<entry>, mode 0600 in a 0700 folder. Unencrypted: whoever
    // can read the user's files (or their backups) can read the key.
    static QString keyFilePath(const QString &entry);
    static bool hasKeyFile(const QString &entry);
    // Writes the key file; the error (translated) or empty.
    static QString writeKeyFile(const QString &entry, const QString &key);
    static void removeKeyFile(const QString &entry);
    static ApiKeyLookup readKeyFile(const QString &entry);

    // The environment variable first (it is what CI and scripts set), then the key file when the user chose one,
    // then the keychain entry.
    void lookup(const EndpointConfig &endpoint, QObject *context, std::function<void(const ApiKeyLookup &)> done);
    void readKey(const QString &entry, QObject *context, std::function<void(const ApiKeyLookup &)> done);
    // done(error): empty on success. A key file of the entry is removed once the keychain holds the key.
    void writeKey(const QString &entry, const QString &key, QObject *context, std::function<void(const QString &)> done);
    void deleteKey(const QString &entry, QObject *context, std::function<void(const QString &)> done);
};

} // namespace kforge
