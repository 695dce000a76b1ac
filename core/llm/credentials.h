#pragma once
// API keys: read from the environment variable an endpoint names, or from the system keychain (QtKeychain,
// service "KForge"). Keychain access is asynchronous; answers come back through callbacks in the context's
// thread. Keys are never written anywhere else.
#include "core/llm/endpointconfig.h"

#include <QObject>
#include <QString>
#include <functional>

namespace kforge {

struct ApiKeyLookup {
    enum Source { None, Environment, Keychain };
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

    // The environment variable first (it is what CI and scripts set), then the keychain entry.
    void lookup(const EndpointConfig &endpoint, QObject *context, std::function<void(const ApiKeyLookup &)> done);
    void readKey(const QString &entry, QObject *context, std::function<void(const ApiKeyLookup &)> done);
    // done(error): empty on success.
    void writeKey(const QString &entry, const QString &key, QObject *context, std::function<void(const QString &)> done);
    void deleteKey(const QString &entry, QObject *context, std::function<void(const QString &)> done);
};

} // namespace kforge
