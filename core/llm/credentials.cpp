#include "core/llm/credentials.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
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

QString Credentials::keyFilePath(const QString &entry)
{
    // An entry is an endpoint id; anything outside a plain file name is replaced so it cannot leave the folder.
    QString name = entry.trimmed();
    for (QChar &c : name)
        if (!c.isLetterOrNumber() && c != u'-' && c != u'_' && c != u'.')
            c = u'_';
    if (name.isEmpty() || name.startsWith(u'.'))
        name.prepend(u'_');
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/keys/") + name;
}

bool Credentials::hasKeyFile(const QString &entry)
{
    return !entry.isEmpty() && QFileInfo::exists(keyFilePath(entry));
}

QString Credentials::writeKeyFile(const QString &entry, const QString &key)
{
    const QString path = keyFilePath(entry);
    const QString folder = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(folder))
        return tr("could not create the folder %1").arg(QDir::toNativeSeparators(folder));
    QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    // Made with mode 0600 from the start (an existing file gets it too): the key is never readable by others,
    // not even for a moment.
    const QString temporary = path + QStringLiteral(".new");
    QFile::remove(temporary);
    QFile f(temporary);
    if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return tr("could not write %1: %2").arg(QDir::toNativeSeparators(temporary), f.errorString());
    const QByteArray bytes = key.trimmed().toUtf8() + '\n';
    if (f.write(bytes) != bytes.size() || !f.flush()) {
        const QString error = f.errorString();
        f.close();
        f.remove();
        return tr("could not write %1: %2").arg(QDir::toNativeSeparators(temporary), error);
    }
    f.close();
    QFile::remove(path);
    if (!QFile::rename(temporary, path)) {
        QFile::remove(temporary);
        return tr("could not write %1").arg(QDir::toNativeSeparators(path));
    }
    return {};
}

void Credentials::removeKeyFile(const QString &entry)
{
    if (!entry.isEmpty())
        QFile::remove(keyFilePath(entry));
}

ApiKeyLookup Credentials::readKeyFile(const QString &entry)
{
    ApiKeyLookup r;
    QFile f(keyFilePath(entry));
    if (!f.open(QIODevice::ReadOnly)) {
        r.error = tr("could not read the key file %1: %2").arg(QDir::toNativeSeparators(f.fileName()), f.errorString());
        return r;
    }
    r.key = QString::fromUtf8(f.readAll()).trimmed();
    r.source = r.key.isEmpty() ? ApiKeyLookup::None : ApiKeyLookup::File;
    if (r.key.isEmpty())
        r.error = tr("the key file %1 is empty").arg(QDir::toNativeSeparators(f.fileName()));
    return r;
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
    if (fromEnv.isEmpty() && hasKeyFile(endpoint.keychainEntry)) {
        // The user chose the file (a machine without a keychain service): it is the key, not a fallback.
        const ApiKeyLookup r = readKeyFile(endpoint.keychainEntry);
        QTimer::singleShot(0, context, [done = std::move(done), r] { done(r); });
        return;
    }
    if (!fromEnv.isEmpty() || endpoint.keychainEntry.isEmpty() || !keychainAvailable()) {
        ApiKeyLookup r;
        r.key = fromEnv;
        r.source = fromEnv.isEmpty() ? ApiKeyLookup::None : ApiKeyLookup::Environment;
        if (fromEnv.isEmpty() && endpoint.needsKey()) {
            r.error = endpoint.apiKeyEnv.isEmpty()
                          ? tr("no API key: the endpoint names neither an environment variable nor a keychain entry")
                          : tr("no API key: the environment variable %1 is not set").arg(endpoint.apiKeyEnv);
        }
        QTimer::singleShot(0, context, [done = std::move(done), r] { done(r); });
        return;
    }
    const QString env = endpoint.apiKeyEnv;
    const bool needed = endpoint.needsKey();
    readKey(endpoint.keychainEntry, context, [done = std::move(done), env, needed](const ApiKeyLookup &r) {
        if (!r.found() && !needed) {
            // A local server: no key is no error, and a keychain that cannot be read is none of its business.
            done({{}, ApiKeyLookup::None, {}});
            return;
        }
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
    connect(job, &QKeychain::Job::finished, context, [done = std::move(done), entry](QKeychain::Job *j) {
        const QString error = describe(j);
        if (error.isEmpty())
            removeKeyFile(entry); // else the file, read first, would hide the key just stored
        done(error);
    });
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
