// The settings dialog shows what Settings holds and writes back exactly what the user changed.
#include "core/settings/settings.h"
#include "views/settings/compilerpage.h"
#include "views/settings/endpointspage.h"
#include "views/settings/generalpage.h"
#include "views/settings/settingsdialog.h"
#include "views/settings/timingpage.h"
#include "views/settings/workerspage.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;

class TestSettingsDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void showsAndAppliesEveryPage()
    {
        Settings settings(m_dir.filePath(QStringLiteral("dialog.ini")));
        settings.setTheme(Theme::Dark);
        settings.setCompileFlags({QStringLiteral("-O3"), QStringLiteral("-DNAME=a b")});
        SettingsDialog dialog(settings);
        QCOMPARE(dialog.pageCount(), 5);

        auto *general = static_cast<GeneralPage *>(dialog.page(SettingsDialog::General));
        QCOMPARE(general->themeBox()->currentData().toInt(), int(Theme::Dark));
        QCOMPARE(general->languageBox()->currentData().toString(), QStringLiteral("system"));
        general->languageBox()->setCurrentIndex(general->languageBox()->findData(QStringLiteral("zh_CN")));
        general->themeBox()->setCurrentIndex(general->themeBox()->findData(int(Theme::Light)));

        auto *compiler = static_cast<CompilerPage *>(dialog.page(SettingsDialog::Compiler));
        QCOMPARE(compiler->flagsEdit()->text(), QStringLiteral("-O3 -DNAME=a b")); // shown joined...
        compiler->flagsEdit()->setText(QStringLiteral("-O2 \"-DNAME=a b\" --use_fast_math"));
        compiler->archBox()->setCurrentIndex(compiler->archBox()->findData(QStringLiteral("sm_90")));

        auto *workers = static_cast<WorkersPage *>(dialog.page(SettingsDialog::Workers));
        QCOMPARE(workers->table()->rowCount(), 1);
        workers->addWorker();
        QCOMPARE(workers->table()->rowCount(), 2);
        workers->table()->item(1, 1)->setText(QStringLiteral("ssh gpu-box kforge-worker"));
        workers->table()->item(1, 0)->setText(QStringLiteral("gpu-box"));

        auto *timing = static_cast<TimingPage *>(dialog.page(SettingsDialog::Timing));
        TimingSetting t = timing->timing();
        QCOMPARE(t, settings.timing());
        t.trials = 9;
        t.minTimeMs = 250;
        t.ciTargetPercent = 2.5;
        timing->setTiming(t);
        // Hardware metrics for round candidates: "when they pay" until the user picks another.
        QCOMPARE(timing->metricsBox()->count(), 3);
        QCOMPARE(timing->metricsBox()->currentData().toInt(), int(MetricsPolicy::Mode::WhenTheyPay));
        QCOMPARE(timing->metricsPolicy(), Settings::Defaults::metricsPolicy());
        timing->metricsBox()->setCurrentIndex(timing->metricsBox()->findData(int(MetricsPolicy::Mode::Never)));

        auto *endpoints = static_cast<EndpointsPage *>(dialog.page(SettingsDialog::Models));
        QCOMPARE(endpoints->list()->count(), 0);
        endpoints->addFromPreset(QStringLiteral("vllm"));
        endpoints->addFromPreset(QStringLiteral("vllm"));
        QCOMPARE(endpoints->list()->count(), 2);
        QTest::keyClicks(endpoints->modelEdit(), QStringLiteral("qwen3-coder"));

        QSignalSpy theme(&settings, &Settings::themeChanged);
        QSignalSpy language(&settings, &Settings::languageChanged);
        QSignalSpy metrics(&settings, &Settings::metricsPolicyChanged);
        dialog.buttons()->button(QDialogButtonBox::Ok)->click();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(theme.count(), 1);
        QCOMPARE(language.count(), 1);

        QCOMPARE(settings.language(), QStringLiteral("zh_CN"));
        QCOMPARE(settings.theme(), Theme::Light);
        // ...and split like a shell would, so a quoted argument stays one argument.
        QCOMPARE(settings.compileFlags(),
                 (QStringList{QStringLiteral("-O2"), QStringLiteral("-DNAME=a b"), QStringLiteral("--use_fast_math")}));
        QCOMPARE(settings.defaultArch(), QStringLiteral("sm_90"));
        QCOMPARE(settings.workers().size(), 2);
        QCOMPARE(settings.workers()[1].name, QStringLiteral("gpu-box"));
        QCOMPARE(settings.workers()[1].command, QStringLiteral("ssh gpu-box kforge-worker"));
        QCOMPARE(settings.timing().trials, 9);
        QCOMPARE(settings.timing().minTimeMs, 250);
        QCOMPARE(settings.timing().ciTargetPercent, 2.5); // the median confidence target, in percent
        QCOMPARE(metrics.count(), 1);
        QCOMPARE(settings.metricsPolicy(), MetricsPolicy::Mode::Never);
        {
            // Persisted: a new Settings on the same file reads it back, and a new dialog shows it.
            Settings reread(m_dir.filePath(QStringLiteral("dialog.ini")));
            settings.sync();
            QCOMPARE(reread.metricsPolicy(), MetricsPolicy::Mode::Never);
            SettingsDialog again(reread);
            QCOMPARE(static_cast<TimingPage *>(again.page(SettingsDialog::Timing))->metricsPolicy(),
                     MetricsPolicy::Mode::Never);
        }
        const QList<EndpointConfig> saved = settings.endpoints();
        QCOMPARE(saved.size(), 2);
        QStringList ids{saved[0].id, saved[1].id};
        ids.sort();
        QCOMPARE(ids, (QStringList{QStringLiteral("vllm"), QStringLiteral("vllm-2")}));
        const auto edited = std::find_if(saved.begin(), saved.end(),
                                         [](const EndpointConfig &e) { return e.id == QLatin1String("vllm-2"); });
        QCOMPARE(edited->defaultModel, QStringLiteral("qwen3-coder"));
        QCOMPARE(edited->baseUrl, QStringLiteral("http://localhost:8000/v1"));
    }

    void cancelChangesNothing()
    {
        Settings settings(m_dir.filePath(QStringLiteral("cancel.ini")));
        SettingsDialog dialog(settings);
        auto *workers = static_cast<WorkersPage *>(dialog.page(SettingsDialog::Workers));
        workers->table()->selectRow(0);
        workers->removeSelected();
        QCOMPARE(workers->table()->rowCount(), 0);
        dialog.buttons()->button(QDialogButtonBox::Cancel)->click();
        QCOMPARE(settings.workers().size(), 1);
    }

    void emptyWorkerListIsKept()
    {
        Settings settings(m_dir.filePath(QStringLiteral("noworkers.ini")));
        SettingsDialog dialog(settings);
        auto *workers = static_cast<WorkersPage *>(dialog.page(SettingsDialog::Workers));
        workers->setWorkers({});
        dialog.apply();
        QVERIFY(settings.workers().isEmpty());
        SettingsDialog again(settings);
        QCOMPARE(static_cast<WorkersPage *>(again.page(SettingsDialog::Workers))->table()->rowCount(), 0);
    }

    void restoreDefaultsOfCurrentPage()
    {
        Settings settings(m_dir.filePath(QStringLiteral("defaults.ini")));
        TimingSetting t;
        t.trials = 2;
        settings.setTiming(t);
        settings.setMetricsPolicy(MetricsPolicy::Mode::Always);
        SettingsDialog dialog(settings);
        dialog.showPage(SettingsDialog::Timing);
        dialog.buttons()->button(QDialogButtonBox::RestoreDefaults)->click();
        QCOMPARE(static_cast<TimingPage *>(dialog.page(SettingsDialog::Timing))->timing(), Settings::Defaults::timing());
        QCOMPARE(settings.timing().trials, 2); // only shown until applied
        QCOMPARE(static_cast<TimingPage *>(dialog.page(SettingsDialog::Timing))->metricsPolicy(),
                 MetricsPolicy::Mode::WhenTheyPay);
        QCOMPARE(settings.metricsPolicy(), MetricsPolicy::Mode::Always);
        dialog.apply();
        QCOMPARE(settings.timing(), Settings::Defaults::timing());
        QCOMPARE(settings.metricsPolicy(), MetricsPolicy::Mode::WhenTheyPay);
    }

    void compilerDetection()
    {
        Settings settings(m_dir.filePath(QStringLiteral("nvcc.ini")));
        settings.setNvccPath(QStringLiteral("/nonexistent/nvcc"));
        SettingsDialog dialog(settings);
        auto *compiler = static_cast<CompilerPage *>(dialog.page(SettingsDialog::Compiler));
        QSignalSpy detected(compiler, &CompilerPage::detectionFinished);
        QVERIFY(detected.wait(5000));
        QVERIFY(!detected.first().first().value<ToolchainInfo>().found);
        QVERIFY(compiler->detectionLabel()->text().contains(QLatin1String("/nonexistent/nvcc")));
    }

    void screenshot()
    {
        Settings settings(m_dir.filePath(QStringLiteral("shot.ini")));
        SettingsDialog dialog(settings);
        dialog.showPage(SettingsDialog::Workers);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(dialog.grab().save(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/settings-workers.png")));
        dialog.showPage(SettingsDialog::Models);
        static_cast<EndpointsPage *>(dialog.page(SettingsDialog::Models))->addFromPreset(QStringLiteral("openai"));
        QVERIFY(dialog.grab().save(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/settings-models.png")));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestSettingsDialog)
#include "tst_settingsdialog.moc"
