// The workbench in Simplified Chinese: with the zh_CN catalogue installed before the window is built, its
// menus and empty state read in Chinese; switching back to English restores the source texts.
#include "app/gui/mainactions.h"
#include "app/gui/mainwindow.h"
#include "core/log/loghub.h"
#include "core/settings/settings.h"
#include "core/settings/translations.h"

#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kforge;

namespace {
QStringList menuTitles(QMainWindow &w)
{
    QStringList titles;
    for (QAction *a : w.menuBar()->actions())
        titles << a->text();
    return titles;
}

bool anyLabelContains(QWidget &w, const QString &text)
{
    const auto labels = w.findChildren<QLabel *>();
    return std::any_of(labels.begin(), labels.end(), [&](QLabel *l) { return l->text().contains(text); });
}
} // namespace

class TestAppTranslation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void chineseMenus_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QStringList>("menus");
        QTest::addColumn<QString>("openTask");
        QTest::addColumn<QString>("emptyState");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN")
                               << QStringList{QStringLiteral("文件(&F)"), QStringLiteral("编辑(&E)"),
                                              QStringLiteral("视图(&V)"), QStringLiteral("工具(&T)"),
                                              QStringLiteral("帮助(&H)")}
                               << QStringLiteral("打开任务文件夹(&T)…") << QStringLiteral("尚未打开任务");
        QTest::newRow("en") << QStringLiteral("en")
                            << QStringList{QStringLiteral("&File"), QStringLiteral("&Edit"), QStringLiteral("&View"),
                                           QStringLiteral("&Tools"), QStringLiteral("&Help")}
                            << QStringLiteral("Open &Task Folder…") << QStringLiteral("No task is open");
    }

    void chineseMenus()
    {
        QFETCH(QString, language);
        QFETCH(QStringList, menus);
        QFETCH(QString, openTask);
        QFETCH(QString, emptyState);
        Settings settings(m_dir.filePath(language + QStringLiteral(".ini")));
        settings.setLanguage(language);
        Translations::install(settings.language());
        LogHub log;
        MainWindow w(settings, log);
        QCOMPARE(menuTitles(w), menus);
        QCOMPARE(w.actions()->openTaskFolder->text(), openTask);
        QVERIFY(anyLabelContains(w, emptyState));
        if (language == QLatin1String("zh_CN")) {
            w.resize(1100, 700);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.grab().save(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/mainwindow-zh_CN.png")));
            // The workbench's docks in Chinese, on the example task (the layout must hold with these strings).
            QSignalSpy opened(&w, &MainWindow::taskOpened);
            w.resize(1600, 950);
            w.openTaskFolder(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/diag_matmul"));
            QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
            QStringList docks;
            for (const QDockWidget *d : w.findChildren<QDockWidget *>())
                docks << d->windowTitle();
            QVERIFY2(docks.contains(QStringLiteral("轮次控制")) && docks.contains(QStringLiteral("变体")),
                     qPrintable(docks.join(u' ')));
            QTest::qWait(200);
            QVERIFY(w.grab().save(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/mainwindow-zh_CN-task.png")));
        }
    }

    void cleanupTestCase() { Translations::install(QStringLiteral("en")); }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestAppTranslation)
#include "tst_apptranslation.moc"
