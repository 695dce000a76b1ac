#pragma once
// Every user setting of KForge with its type and default, persisted through QSettings. One object is
// created by the application and handed to whoever needs it; nothing else reads QSettings keys.
#include "core/compile/kernelbuildflags.h"
#include "core/eval/timingsetting.h"
#include "core/llm/endpointconfig.h"
#include "core/llm/pricetable.h"
#include "core/queue/metricspolicy.h"
#include "core/workerpool/workerconfig.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

class QSettings;

namespace kforge {

enum class Theme { System, Light, Dark };

class Settings : public QObject
{
    Q_OBJECT
public:
    // The values a fresh installation starts with: the one place defaults are written down.
    struct Defaults {
        static constexpr int maxRecentFiles = 10;
        static QString language() { return QStringLiteral("system"); }
        static Theme theme() { return Theme::System; }
        static QString nvccPath() { return {}; } // empty: look in PATH, then /usr/local/cuda/bin
        static QStringList compileFlags() { return KernelBuildFlags::defaults(); }
        static QString defaultArch() { return {}; } // empty: the architecture of the worker's GPU
        static QList<WorkerConfig> workers()
        {
            WorkerConfig local;
            local.name = QStringLiteral("local");
            local.command = QStringLiteral("kforge-worker --device 0");
            return {local};
        }
        static TimingSetting timing() { return {}; }
        static MetricsPolicy::Mode metricsPolicy() { return MetricsPolicy::Mode::WhenTheyPay; }
        static QList<EndpointConfig> endpoints() { return {}; } // see EndpointPresets for starting points
        static constexpr int candidatesPerRound = 4;
        static constexpr int exemplars = 2;
        static constexpr double temperature = 0.7;
    };

    // Uses the application's QSettings (organization/application name must be set before).
    explicit Settings(QObject *parent = nullptr);
    // Uses an INI file at `fileName` (tests, portable set-ups).
    explicit Settings(const QString &fileName, QObject *parent = nullptr);
    ~Settings() override;

    QString language() const; // "system", "en" or "zh_CN"
    void setLanguage(const QString &language);
    static QStringList availableLanguages();

    Theme theme() const;
    void setTheme(Theme theme);

    QStringList recentFiles() const; // task folders and session files, most recent first
    void addRecentFile(const QString &path);
    void removeRecentFile(const QString &path);
    void clearRecentFiles();
    // The session file open when KForge last had one (a working session of a task folder included), reopened at the
    // next start without a path; empty when the last thing shown was none.
    QString lastSession() const;
    void setLastSession(const QString &path);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray &state);

    QString nvccPath() const;
    void setNvccPath(const QString &path);
    QStringList compileFlags() const;
    void setCompileFlags(const QStringList &flags);
    QString defaultArch() const;
    void setDefaultArch(const QString &arch);

    QList<WorkerConfig> workers() const;
    void setWorkers(const QList<WorkerConfig> &workers);

    TimingSetting timing() const;
    void setTiming(const TimingSetting &timing);
    // When a round's candidates get the hardware-metrics pass (MetricsPolicy, issue 16); stored as
    // MetricsPolicy::toString() writes it, the same words as `kforge-cli optimize --metrics`.
    MetricsPolicy::Mode metricsPolicy() const;
    void setMetricsPolicy(MetricsPolicy::Mode mode);

    // Stored as EndpointConfig::saveAll() writes them, so kforge-cli reads the same list. No keys here:
    // those go to the keychain (Credentials).
    QList<EndpointConfig> endpoints() const;
    void setEndpoints(const QList<EndpointConfig> &endpoints);

    // What the models cost ($ per million tokens), as PriceTable::save() writes it: usage turned into money in
    // rounds and `kforge-cli chat`. Empty by default (prices change too often to ship).
    PriceTable prices() const;
    void setPrices(const PriceTable &prices);

    int candidatesPerRound() const;
    void setCandidatesPerRound(int n);
    int exemplars() const;
    void setExemplars(int n);
    double temperature() const;
    void setTemperature(double t);

    // Writes pending changes to disk now (they are also written when the object is destroyed).
    void sync();

    static QString themeName(Theme theme);
    static Theme themeFromName(const QString &name);

Q_SIGNALS:
    void languageChanged();
    void themeChanged();
    void recentFilesChanged();
    void compilerChanged();
    void workersChanged();
    void timingChanged();
    void metricsPolicyChanged();
    void endpointsChanged();
    void pricesChanged();
    void roundDefaultsChanged();

private:
    // Moves values from the keys of earlier releases to today's.
    void migrate();

    std::unique_ptr<QSettings> m_store;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::TimingSetting)
