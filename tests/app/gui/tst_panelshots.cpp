// The Compare, roofline, editor and Task panels in the real main window on the H200 session, in English and
// Chinese at 1280×800 and 1920×1080: their key texts in each language, and a screenshot of each into the test
// artefacts (test-artifacts/panels-<platform>-<language>-<size>-<panel>.png). Run offscreen by CTest; under
// a real X server with
//   xvfb-run -s "-screen 0 1920x1080x24" env QT_QPA_PLATFORM=xcb build/ci/tests/app/gui/tst_panelshots
#include "app/gui/mainwindow.h"
#include "core/log/loghub.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/settings/translations.h"
#include "views/charts/chartspanel.h"
#include "views/charts/rooflinechart.h"
#include "views/compare/comparepanel.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/varianttabbinding.h"
#include "views/task/taskpanel.h"
#include "views/variants/variantselection.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QGuiApplication>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;

class TestPanelShots : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void panels_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("taskDock");
        QTest::addColumn<QString>("withinNoise");
        QTest::addColumn<QString>("speedOfLight");
        QTest::addColumn<QString>("roof");
        for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
            const QByteArray tag = QByteArray::number(size.width()) + 'x' + QByteArray::number(size.height());
            QTest::newRow(QByteArray("en " + tag).constData())
                << QStringLiteral("en") << size << QStringLiteral("Task")
                << QStringLiteral("take the same time within noise")
                << QStringLiteral("Speed of light: 31.8 µs, memory-bound.") << QStringLiteral("measured: 4219 GB/s");
            QTest::newRow(QByteArray("zh_CN " + tag).constData())
                << QStringLiteral("zh_CN") << size << QStringLiteral("任务") << QStringLiteral("的用时在噪声范围内相同")
                << QStringLiteral("光速上限：31.8 µs，内存 受限。") << QStringLiteral("实测：4219 GB/s");
        }
    }

    void panels()
    {
        QFETCH(QString, language);
        QFETCH(QSize, size);
        QFETCH(QString, taskDock);
        QFETCH(QString, withinNoise);
        QFETCH(QString, speedOfLight);
        QFETCH(QString, roof);
        const QString stem =
            QStringLiteral("%1-%2-%3x%4").arg(QGuiApplication::platformName(), language).arg(size.width()).arg(size.height());
        Settings settings(m_dir.filePath(stem + QStringLiteral(".ini")));
        settings.setLanguage(language);
        settings.setWorkers({});
        Translations::install(settings.language());
        const QString file = m_dir.filePath(stem + QStringLiteral(".kforge"));
        QVERIFY(QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge"), file));
        QFile(file).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        {
            LogHub log;
            MainWindow w(settings, log);
            w.resize(size);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            // The panels never make the first layout wider than asked (or than the window's minimum).
            QVERIFY2(w.width() <= std::max(size.width(), w.minimumSizeHint().width()),
                     qPrintable(QString::number(w.width())));
            QVERIFY2(w.openSession(file), qPrintable(w.session()->errorString()));
            const QString dir = QStringLiteral(KFORGE_TEST_ARTIFACT_DIR);
            auto shot = [&](const QString &panel) {
                QTest::qWait(150);
                const QString path = dir + QStringLiteral("/panels-%1-%2.png").arg(stem, panel);
                QVERIFY(w.grab().save(path));
                qInfo("screenshot: %s", qPrintable(path));
            };

            // Task: a dock of the View menu, beside Round Control.
            QDockWidget *task = w.dockOf(w.taskPanel());
            QVERIFY(task);
            QCOMPARE(task->windowTitle(), taskDock);
            task->raise();
            QVERIFY2(w.taskPanel()->text().contains(speedOfLight), qPrintable(w.taskPanel()->text()));
            // Editor: the bundled variants and #6, with close buttons.
            w.tabs()->showVariant(6);
            shot(QStringLiteral("task-editor"));

            // Compare #6 against #8: within noise.
            w.selection()->setComparePair(6, 8);
            w.dockOf(w.comparePanel())->raise();
            QVERIFY2(w.comparePanel()->headlineText().contains(withinNoise), qPrintable(w.comparePanel()->headlineText()));
            shot(QStringLiteral("compare"));

            // The roofline of #6 and #8, their coincident kernels fanned out, the roofs marked as measured.
            ChartsPanel *panel = w.chartsPanel();
            QDockWidget *charts = w.dockOf(panel);
            QVERIFY(charts);
            charts->raise();
            panel->tabs()->setCurrentWidget(panel->rooflineChart());
            w.selection()->setSelected({6, 8}, 6);
            panel->rooflineChart()->refreshNow();
            QVERIFY2(panel->rooflineChart()->roofLabels().contains(roof),
                     qPrintable(panel->rooflineChart()->roofLabels().join(u'|')));
            shot(QStringLiteral("roofline"));
        }
        Translations::install(QStringLiteral("en"));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestPanelShots)
#include "tst_panelshots.moc"
