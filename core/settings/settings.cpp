#include "core/settings/settings.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include <algorithm>

namespace kforge {

namespace {
// Keys live here only; the rest of KForge goes through the typed accessors.
namespace Key {
// Not "general/...": QSettings' INI format writes a group of that name as [%General], which the next process
// reads back as "General/...", so nothing written there was ever found again (issue 14).
constexpr QLatin1String language("ui/language");
constexpr QLatin1String theme("ui/theme");
constexpr QLatin1String recentFiles("ui/recentFiles");
constexpr QLatin1String lastSession("ui/lastSession");
constexpr QLatin1String windowGeometry("window/geometry");
constexpr QLatin1String windowState("window/state");
constexpr QLatin1String nvccPath("compiler/nvccPath");
constexpr QLatin1String compileFlags("compiler/flags");
constexpr QLatin1String defaultArch("compiler/defaultArch");
constexpr QLatin1String workers("workers");
constexpr QLatin1String timing("timing");
constexpr QLatin1String metricsPolicy("evaluation/metricsPolicy");
constexpr QLatin1String candidates("rounds/candidatesPerRound");
constexpr QLatin1String exemplars("rounds/exemplars");
constexpr QLatin1String temperature("rounds/temperature");
} // namespace Key

// Where releases before the key change kept these values: "general/..." as written, "General/..." as read back
// by a later process.
struct MovedKey {
    QLatin1String from;
    QLatin1String to;
};
constexpr MovedKey movedKeys[] = {
    {QLatin1String("General/language"), Key::language},
    {QLatin1String("General/theme"), Key::theme},
    {QLatin1String("General/recentFiles"), Key::recentFiles},
    {QLatin1String("general/language"), Key::language},
    {QLatin1String("general/theme"), Key::theme},
    {QLatin1String("general/recentFiles"), Key::recentFiles},
};

QString normalizedPath(const QString &path)
{
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

QString transferName(WorkerConfig::Transfer t)
{
    switch (t) {
    case WorkerConfig::Transfer::Path: return QStringLiteral("path");
    case WorkerConfig::Transfer::Inline: return QStringLiteral("inline");
    case WorkerConfig::Transfer::Auto: break;
    }
    return QStringLiteral("auto");
}

WorkerConfig::Transfer transferFromName(const QString &name)
{
    if (name == QLatin1String("path"))
        return WorkerConfig::Transfer::Path;
    if (name == QLatin1String("inline"))
        return WorkerConfig::Transfer::Inline;
    return WorkerConfig::Transfer::Auto;
}

bool sameWorkers(const QList<WorkerConfig> &a, const QList<WorkerConfig> &b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const WorkerConfig &x, const WorkerConfig &y) {
        return x.name == y.name && x.command == y.command && x.transfer == y.transfer
               && x.startTimeoutMs == y.startTimeoutMs;
    });
}
} // namespace

Settings::Settings(QObject *parent)
    : QObject(parent)
    , m_store(std::make_unique<QSettings>())
{
    migrate();
}

Settings::Settings(const QString &fileName, QObject *parent)
    : QObject(parent)
    , m_store(std::make_unique<QSettings>(fileName, QSettings::IniFormat))
{
    migrate();
}

void Settings::migrate()
{
    bool moved = false;
    for (const MovedKey &k : movedKeys) {
        if (!m_store->contains(k.from))
            continue;
        // A value already under the new key was written later: it wins.
        if (!m_store->contains(k.to))
            m_store->setValue(k.to, m_store->value(k.from));
        m_store->remove(k.from);
        moved = true;
    }
    if (moved)
        m_store->sync();
}

Settings::~Settings()
{
    m_store->sync();
}

void Settings::sync()
{
    m_store->sync();
}

QString Settings::language() const
{
    const QString value = m_store->value(Key::language, Defaults::language()).toString();
    return availableLanguages().contains(value) ? value : Defaults::language();
}

void Settings::setLanguage(const QString &language)
{
    if (!availableLanguages().contains(language) || language == this->language())
        return;
    m_store->setValue(Key::language, language);
    Q_EMIT languageChanged();
}

QStringList Settings::availableLanguages()
{
    return {QStringLiteral("system"), QStringLiteral("en"), QStringLiteral("zh_CN")};
}

QString Settings::themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light: return QStringLiteral("light");
    case Theme::Dark: return QStringLiteral("dark");
    case Theme::System: break;
    }
    return QStringLiteral("system");
}

Theme Settings::themeFromName(const QString &name)
{
    if (name == QLatin1String("light"))
        return Theme::Light;
    if (name == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

Theme Settings::theme() const
{
    return themeFromName(m_store->value(Key::theme, themeName(Defaults::theme())).toString());
}

void Settings::setTheme(Theme theme)
{
    if (theme == this->theme())
        return;
    m_store->setValue(Key::theme, themeName(theme));
    Q_EMIT themeChanged();
}

QStringList Settings::recentFiles() const
{
    return m_store->value(Key::recentFiles).toStringList();
}

void Settings::addRecentFile(const QString &path)
{
    const QString clean = normalizedPath(path);
    QStringList files = recentFiles();
    files.removeAll(clean);
    files.prepend(clean);
    while (files.size() > Defaults::maxRecentFiles)
        files.removeLast();
    m_store->setValue(Key::recentFiles, files);
    Q_EMIT recentFilesChanged();
}

void Settings::removeRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    if (files.removeAll(normalizedPath(path)) == 0)
        return;
    m_store->setValue(Key::recentFiles, files);
    Q_EMIT recentFilesChanged();
}

void Settings::clearRecentFiles()
{
    if (recentFiles().isEmpty())
        return;
    m_store->remove(Key::recentFiles);
    Q_EMIT recentFilesChanged();
}

QString Settings::lastSession() const
{
    return m_store->value(Key::lastSession).toString();
}

void Settings::setLastSession(const QString &path)
{
    if (path.isEmpty())
        m_store->remove(Key::lastSession);
    else
        m_store->setValue(Key::lastSession, normalizedPath(path));
}

QByteArray Settings::windowGeometry() const
{
    return m_store->value(Key::windowGeometry).toByteArray();
}

void Settings::setWindowGeometry(const QByteArray &geometry)
{
    m_store->setValue(Key::windowGeometry, geometry);
}

QByteArray Settings::windowState() const
{
    return m_store->value(Key::windowState).toByteArray();
}

void Settings::setWindowState(const QByteArray &state)
{
    m_store->setValue(Key::windowState, state);
}

QString Settings::nvccPath() const
{
    return m_store->value(Key::nvccPath, Defaults::nvccPath()).toString();
}

void Settings::setNvccPath(const QString &path)
{
    if (path == nvccPath())
        return;
    m_store->setValue(Key::nvccPath, path);
    Q_EMIT compilerChanged();
}

QStringList Settings::compileFlags() const
{
    if (!m_store->contains(Key::compileFlags))
        return Defaults::compileFlags();
    return m_store->value(Key::compileFlags).toStringList();
}

void Settings::setCompileFlags(const QStringList &flags)
{
    if (flags == compileFlags())
        return;
    m_store->setValue(Key::compileFlags, flags);
    Q_EMIT compilerChanged();
}

QString Settings::defaultArch() const
{
    return m_store->value(Key::defaultArch, Defaults::defaultArch()).toString();
}

void Settings::setDefaultArch(const QString &arch)
{
    if (arch == defaultArch())
        return;
    m_store->setValue(Key::defaultArch, arch);
    Q_EMIT compilerChanged();
}

QList<WorkerConfig> Settings::workers() const
{
    // An explicitly saved empty list means "no workers"; only a never-written list gets the default.
    if (!m_store->contains(Key::workers + QLatin1String("/size")))
        return Defaults::workers();
    QList<WorkerConfig> result;
    const int n = m_store->beginReadArray(Key::workers);
    for (int i = 0; i < n; ++i) {
        m_store->setArrayIndex(i);
        WorkerConfig w;
        w.name = m_store->value(QStringLiteral("name")).toString();
        w.command = m_store->value(QStringLiteral("command"), w.command).toString();
        w.transfer = transferFromName(m_store->value(QStringLiteral("transfer")).toString());
        w.startTimeoutMs = std::max(1000, m_store->value(QStringLiteral("startTimeoutMs"), w.startTimeoutMs).toInt());
        result.append(w);
    }
    m_store->endArray();
    return result;
}

void Settings::setWorkers(const QList<WorkerConfig> &workers)
{
    const bool stored = m_store->contains(Key::workers + QLatin1String("/size"));
    if (stored && sameWorkers(workers, this->workers()))
        return;
    m_store->remove(Key::workers);
    m_store->beginWriteArray(Key::workers, int(workers.size()));
    for (int i = 0; i < workers.size(); ++i) {
        m_store->setArrayIndex(i);
        m_store->setValue(QStringLiteral("name"), workers[i].name);
        m_store->setValue(QStringLiteral("command"), workers[i].command);
        m_store->setValue(QStringLiteral("transfer"), transferName(workers[i].transfer));
        m_store->setValue(QStringLiteral("startTimeoutMs"), workers[i].startTimeoutMs);
    }
    m_store->endArray();
    Q_EMIT workersChanged();
}

TimingSetting Settings::timing() const
{
    const TimingSetting d = Defaults::timing();
    m_store->beginGroup(Key::timing);
    TimingSetting t;
    t.trials = std::max(1, m_store->value(QStringLiteral("trials"), d.trials).toInt());
    t.minRuns = std::max(1, m_store->value(QStringLiteral("minRuns"), d.minRuns).toInt());
    t.minTimeMs = std::max(0, m_store->value(QStringLiteral("minTimeMs"), d.minTimeMs).toInt());
    t.maxRuns = std::max(t.minRuns, m_store->value(QStringLiteral("maxRuns"), d.maxRuns).toInt());
    t.warmup = std::max(0, m_store->value(QStringLiteral("warmup"), d.warmup).toInt());
    t.ciTargetPercent = std::clamp(m_store->value(QStringLiteral("ciTargetPercent"), d.ciTargetPercent).toDouble(), 0.0,
                                   50.0);
    m_store->endGroup();
    return t;
}

void Settings::setTiming(const TimingSetting &timing)
{
    if (timing == this->timing())
        return;
    m_store->beginGroup(Key::timing);
    m_store->setValue(QStringLiteral("trials"), timing.trials);
    m_store->setValue(QStringLiteral("minRuns"), timing.minRuns);
    m_store->setValue(QStringLiteral("minTimeMs"), timing.minTimeMs);
    m_store->setValue(QStringLiteral("maxRuns"), timing.maxRuns);
    m_store->setValue(QStringLiteral("warmup"), timing.warmup);
    m_store->setValue(QStringLiteral("ciTargetPercent"), timing.ciTargetPercent);
    m_store->endGroup();
    Q_EMIT timingChanged();
}

MetricsPolicy::Mode Settings::metricsPolicy() const
{
    const QString stored = m_store->value(Key::metricsPolicy).toString();
    return MetricsPolicy::modeFromString(stored).value_or(Defaults::metricsPolicy());
}

void Settings::setMetricsPolicy(MetricsPolicy::Mode mode)
{
    if (mode == metricsPolicy())
        return;
    m_store->setValue(Key::metricsPolicy, MetricsPolicy::toString(mode));
    Q_EMIT metricsPolicyChanged();
}

QList<EndpointConfig> Settings::endpoints() const
{
    return EndpointConfig::loadAll(*m_store);
}

void Settings::setEndpoints(const QList<EndpointConfig> &endpoints)
{
    if (endpoints == this->endpoints())
        return;
    EndpointConfig::saveAll(*m_store, endpoints);
    Q_EMIT endpointsChanged();
}

PriceTable Settings::prices() const
{
    return PriceTable::load(*m_store);
}

void Settings::setPrices(const PriceTable &prices)
{
    if (prices.prices() == this->prices().prices())
        return;
    prices.save(*m_store);
    Q_EMIT pricesChanged();
}

int Settings::candidatesPerRound() const
{
    return std::clamp(m_store->value(Key::candidates, Defaults::candidatesPerRound).toInt(), 1, 64);
}

void Settings::setCandidatesPerRound(int n)
{
    if (n == candidatesPerRound())
        return;
    m_store->setValue(Key::candidates, n);
    Q_EMIT roundDefaultsChanged();
}

int Settings::exemplars() const
{
    return std::clamp(m_store->value(Key::exemplars, Defaults::exemplars).toInt(), 0, 16);
}

void Settings::setExemplars(int n)
{
    if (n == exemplars())
        return;
    m_store->setValue(Key::exemplars, n);
    Q_EMIT roundDefaultsChanged();
}

double Settings::temperature() const
{
    return std::clamp(m_store->value(Key::temperature, Defaults::temperature).toDouble(), 0.0, 2.0);
}

void Settings::setTemperature(double t)
{
    if (t == temperature())
        return;
    m_store->setValue(Key::temperature, t);
    Q_EMIT roundDefaultsChanged();
}

} // namespace kforge
