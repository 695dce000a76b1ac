#include "core/llm/credentials.h"

#include <QTimer>

#ifdef KFORGE_HAVE_KEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace kforge {

namespace {

#ifndef KFORGE_HAVE_KEYCHAIN
QString noKeychain()
{
    return Credentials::tr("KForge was built without keychain support (QtKeychain); use an environment variable "
                           "for the API key.");
}
#endif

#ifdef KFORGE_HAVE_KEYCHAIN
QString describe(const QKeychain::Job *job)
{
    switch (job->error()) {
    case QKeychain::NoError: return {};
    case QKeychain::EntryNotFound: return Credentials::tr("the keychain has no entry '%1'").arg(job->key());
    case QKeychain::AccessDeniedByUser:
    case QKeychain::AccessDenied: return Credentials::tr("access to the keychain was denied");
    case QKeychain::NoBackendAvailable:
        return Credentials::tr("no keychain service is running (%1)").arg(job->errorString());
    default: return Credentials::tr("keychain error: %1").arg(job->errorString());
    }
}
#endif

} // namespace

Credentials::Credentials(QObject *parent)
    : QObject(parent)
{
}

bool Credentials::keychainAvailable()
{
#ifdef KFORGE_HAVE_KEYCHAIN
    return true;
#else
    return false;
#endif
}

QString Credentials::fromEnvironment(const QString &variable)
{
    if (variable.trimmed().isEmpty())
        return {};
    return qEnvironmentVariable(variable.trimmed().toLocal8Bit().constData()).trimmed();
}

void Credentials::lookup(const EndpointConfig &endpoint, QObject *context, std::function<void(const ApiKeyLookup &)> done)
{
    const QString fromEnv = fromEnvironment(endpoint.apiKeyEnv);
    if (!fromEnv.isEmpty() || endpoint.keychainEntry.isEmpty() || !keychainAvailable()) {
        ApiKeyLookup r;
        r.key = fromEnv;
        r.source = fromEnv.isEmpty() ? ApiKeyLookup::None : ApiKeyLookup::Environment;
        if (fromEnv.isEmpty() && endpoint.requiresKey) {
            r.error = endpoint.apiKeyEnv.isEmpty()
                          ? tr("no API key: the endpoint names neither an environment variable nor a keychain entry")
                          : tr("no API key: the environment variable %1 is not set").arg(endpoint.apiKeyEnv);
        }
        QTimer::singleShot(0, context, [done = std::move(done), r] { done(r); });
        return;
    }
    const QString env = endpoint.apiKeyEnv;
    readKey(endpoint.keychainEntry, context, [done = std::move(done), env](const ApiKeyLookup &r) {
        if (r.found() || env.isEmpty()) {
            done(r);
            return;
        }
        ApiKeyLookup both = r;
        both.error = tr("no API key: the environment variable %1 is not set and %2").arg(env, r.error);
        done(both);
    });
}

void Credentials::readKey(const QString &entry, QObject *context, std::function<void(const ApiKeyLookup &)> done)
{
#ifdef KFORGE_HAVE_KEYCHAIN
    auto *job = new QKeychain::ReadPasswordJob(QString::fromLatin1(kService), this);
    job->setAutoDelete(true);
    job->setKey(entry);
    connect(job, &QKeychain::Job::finished, context, [done = std::move(done)](QKeychain::Job *j) {
        auto *read = static_cast<QKeychain::ReadPasswordJob *>(j);
        ApiKeyLookup r;
        if (read->error() == QKeychain::NoError) {
            r.key = read->textData().trimmed();
            r.source = ApiKeyLookup::Keychain;
        } else {
            r.error = describe(read);
        }
        done(r);
    });
    job->start();
#else
    Q_UNUSED(entry);
    QTimer::singleShot(0, context, [done = std::move(done)] { done({{}, ApiKeyLookup::None, noKeychain()}); });
#endif
}

void Credentials::writeKey(const QString &entry, const QString &key, QObject *context,
                           std::function<void(const QString &)> done)
{
#ifdef KFORGE_HAVE_KEYCHAIN
    auto *job = new QKeychain::WritePasswordJob(QString::fromLatin1(kService), this);
    job->setAutoDelete(true);
    job->setKey(entry);
    job->setTextData(key);
    connect(job, &QKeychain::Job::finished, context, [done = std::move(done)](QKeychain::Job *j) { done(describe(j)); });
    job->start();
#else
    Q_UNUSED(entry);
    Q_UNUSED(key);
    QTimer::singleShot(0, context, [done = std::move(done)] { done(noKeychain()); });
#endif
}

void Credentials::deleteKey(const QString &entry, QObject *context, std::function<void(const QString &)> done)
{
#ifdef KFORGE_HAVE_KEYCHAIN
    auto *job = new QKeychain::DeletePasswordJob(QString::fromLatin1(kService), this);
    job->setAutoDelete(true);
    job->setKey(entry);
    connect(job, &QKeychain::Job::finished, context, [done = std::move(done)](QKeychain::Job *j) { done(describe(j)); });
    job->start();
#else
    Q_UNUSED(entry);
    QTimer::singleShot(0, context, [done = std::move(done)] { done(noKeychain()); });
#endif
}

} // namespace kforge
