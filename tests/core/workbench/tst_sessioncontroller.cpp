// The session lifecycle against real SQLite files and the repository's task folders: a task gets a working
// session at once (or, when none can be made, is shown read-only and saved as a session later), session files
// open at once or off the thread (a newer open supersedes an older one), Save Session As copies the open
// session, and every opening is remembered in (or a broken one dropped from) the recent files.
#include "core/log/loghub.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/workbench/sessioncontroller.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace kforge;

namespace {
QString taskFolder(const QString &name = QStringLiteral("diag_matmul"))
{
    return QDir::cleanPath(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/") + name);
}

QString workingSessionsDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sessions");
}

// A controller over its own store, with settings of its own.
struct Lifecycle {
    explicit Lifecycle(const QString &ini)
        : settings(ini)
        , sessions(&store, settings, log)
    {
    }
    Settings settings;
    LogHub log;
    SessionStore store;
    SessionController sessions;
};
} // namespace

class TestSessionController : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("tst_sessioncontroller"));
        QVERIFY(m_dir.isValid());
        QFile::remove(workingSessionsDir()); // a blocker a crashed run left
        QDir(workingSessionsDir()).removeRecursively();
    }

    void cleanup() { QFile::remove(workingSessionsDir()); }

    void taskGetsAWorkingSession()
    {
        Lifecycle l(m_dir.filePath(QStringLiteral("working.ini")));
        Settings &settings = l.settings;
        SessionStore &store = l.store;
        SessionController &sessions = l.sessions;
        QSignalSpy opened(&sessions, &SessionController::taskOpened);
        QSignalSpy shown(&sessions, &SessionController::sessionShown);
        QSignalSpy taskShown(&sessions, &SessionController::taskShown);
        QSignalSpy progress(&sessions, &SessionController::progress);

        sessions.openTaskFolder(taskFolder() + QStringLiteral("/"));
        QVERIFY(progress.count() >= 1);
        QVERIFY(progress.first().at(0).toString().contains(QStringLiteral("diag_matmul")));
        // Loaded off the thread; a load that is done before the continuation is attached is adopted at once.
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        QCOMPARE(opened.first().at(0).toString(), taskFolder());
        QCOMPARE(progress.last().at(0).toString(), QString()); // the status message ends
        QCOMPARE(shown.count(), 1);
        QCOMPARE(taskShown.count(), 0);
        QVERIFY(store.isOpen() && store.hasTask());
        QCOMPARE(QFileInfo(store.path()).absolutePath(), QFileInfo(workingSessionsDir()).absoluteFilePath());
        QVERIFY2(QFileInfo(store.path()).fileName().startsWith(QStringLiteral("diag_matmul-")), qPrintable(store.path()));
        QCOMPARE(sessions.taskFolder(), taskFolder());
        QVERIFY(!sessions.task().isValid()); // the session holds the task now
        QVERIFY(sessions.hasSubject());
        QCOMPARE(sessions.subject(), QFileInfo(store.path()).fileName() + QStringLiteral(" (diag_matmul)"));
        QCOMPARE(settings.recentFiles().value(0), taskFolder());
        // The reference and the task's own variants are in the session.
        QVERIFY(store.population().reference());

        // A second opening of the same task gets a session of its own, never the first one's file.
        const QString first = store.path();
        opened.clear();
        sessions.openTaskFolder(taskFolder());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        QVERIFY(store.path() != first);
        QVERIFY(QFileInfo::exists(first));
    }

    void badTaskFolderFails()
    {
        Lifecycle l(m_dir.filePath(QStringLiteral("badtask.ini")));
        Settings &settings = l.settings;
        SessionStore &store = l.store;
        SessionController &sessions = l.sessions;
        QSignalSpy failed(&sessions, &SessionController::failed);
        QSignalSpy opened(&sessions, &SessionController::taskOpened);
        sessions.openTaskFolder(m_dir.filePath(QStringLiteral("no-such-task")));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
        QVERIFY2(failed.first().at(0).toString().startsWith(QStringLiteral("Could not open the task folder")),
                 qPrintable(failed.first().at(0).toString()));
        QCOMPARE(opened.count(), 0);
        QVERIFY(!store.isOpen());
        QVERIFY(!sessions.hasSubject());
        QVERIFY(settings.recentFiles().isEmpty());
    }

    void withoutAWorkingSessionTheTaskIsShownAndSavedLater()
    {
        // A file where the working sessions' folder belongs: no working session can be made.
        QDir().mkpath(QFileInfo(workingSessionsDir()).absolutePath());
        QDir(workingSessionsDir()).removeRecursively();
        {
            QFile blocker(workingSessionsDir());
            QVERIFY(blocker.open(QIODevice::WriteOnly));
        }
        Lifecycle l(m_dir.filePath(QStringLiteral("readonly.ini")));
        Settings &settings = l.settings;
        SessionStore &store = l.store;
        SessionController &sessions = l.sessions;
        QSignalSpy opened(&sessions, &SessionController::taskOpened);
        QSignalSpy taskShown(&sessions, &SessionController::taskShown);
        sessions.openTaskFolder(taskFolder());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        QFile::remove(workingSessionsDir());
        QCOMPARE(taskShown.count(), 1);
        QVERIFY(!store.isOpen());
        QVERIFY(sessions.task().isValid());
        QCOMPARE(sessions.task().name(), QStringLiteral("diag_matmul"));
        QCOMPARE(sessions.taskFolder(), taskFolder());
        QVERIFY(sessions.hasSubject());
        QVERIFY(sessions.subject().contains(QStringLiteral("diag_matmul")));
        QCOMPARE(sessions.saveSuggestion(), QDir::home().filePath(QStringLiteral("diag_matmul.kforge")));
        const auto toldWhy = [&l] {
            const QList<LogEntry> entries = l.log.entries();
            return std::any_of(entries.begin(), entries.end(), [](const LogEntry &e) {
                return e.level == LogLevel::Error && e.message.contains(QStringLiteral("folder for working sessions"));
            });
        };
        QTRY_VERIFY(toldWhy());

        // Save Session As makes a session of the task folder.
        const QString target = m_dir.filePath(QStringLiteral("from-task.kforge"));
        QSignalSpy sessionOpened(&sessions, &SessionController::sessionOpened);
        QVERIFY(sessions.saveSessionAs(target));
        QCOMPARE(sessionOpened.count(), 1);
        QCOMPARE(sessionOpened.first().at(0).toString(), target);
        QVERIFY(store.isOpen());
        QCOMPARE(store.path(), target);
        QVERIFY(store.hasTask());
        QVERIFY(!sessions.task().isValid());
        QVERIFY(sessions.taskFolder().isEmpty());
        QCOMPARE(settings.recentFiles().value(0), target);
    }

    void saveAsCopiesTheOpenSession()
    {
        Lifecycle l(m_dir.filePath(QStringLiteral("saveas.ini")));
        Settings &settings = l.settings;
        SessionStore &store = l.store;
        SessionController &sessions = l.sessions;
        QSignalSpy failed(&sessions, &SessionController::failed);
        // Nothing open: nothing to save.
        QVERIFY(!sessions.saveSessionAs(m_dir.filePath(QStringLiteral("nothing.kforge"))));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().at(0).toString().startsWith(QStringLiteral("There is nothing to save")));
        QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("nothing.kforge"))));

        QSignalSpy opened(&sessions, &SessionController::taskOpened);
        sessions.openTaskFolder(taskFolder());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        const QString working = store.path();
        const qsizetype variants = store.population().size();
        SessionNote note;
        note.text = QStringLiteral("kept by the copy");
        QVERIFY(store.analyses().addNote(note));

        // The same file again: every change is committed already.
        QSignalSpy sessionOpened(&sessions, &SessionController::sessionOpened);
        QVERIFY(sessions.saveSessionAs(working));
        QCOMPARE(sessionOpened.count(), 0);

        const QString target = m_dir.filePath(QStringLiteral("kept.kforge"));
        QVERIFY(sessions.saveSessionAs(target));
        QCOMPARE(sessionOpened.count(), 1);
        QCOMPARE(store.path(), QFileInfo(target).absoluteFilePath());
        QCOMPARE(store.population().size(), variants);
        QCOMPARE(store.analyses().notes().size(), 1);
        QVERIFY(sessions.taskFolder().isEmpty()); // a session opened from a file
        QCOMPARE(settings.recentFiles().value(0), store.path());
        QVERIFY(QFileInfo::exists(working)); // the working session stays where it was
        QCOMPARE(failed.count(), 1);
    }

    void brokenSessionIsDroppedFromRecent()
    {
        Settings settings(m_dir.filePath(QStringLiteral("broken.ini")));
        const QString broken = m_dir.filePath(QStringLiteral("broken.kforge"));
        {
            QFile f(broken);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("this is not an SQLite file, only its name says so\n");
        }
        settings.addRecentFile(broken);
        LogHub log;
        SessionStore store;
        SessionController sessions(&store, settings, log);
        QSignalSpy failed(&sessions, &SessionController::failed);
        QSignalSpy changed(&sessions, &SessionController::changed);
        QVERIFY(!sessions.openSession(broken));
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.first().at(0).toString().startsWith(QStringLiteral("Could not open the session")),
                 qPrintable(failed.first().at(0).toString()));
        QVERIFY(!settings.recentFiles().contains(broken));
        QVERIFY(changed.count() >= 1);

        // The same off the thread.
        settings.addRecentFile(broken);
        sessions.openSessionAsync(broken);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 2, 20000);
        QVERIFY(!settings.recentFiles().contains(broken));
        QVERIFY(!store.isOpen());
    }

    void newerOpenSupersedesOlder()
    {
        Settings settings(m_dir.filePath(QStringLiteral("supersede.ini")));
        LogHub log;
        const QString a = m_dir.filePath(QStringLiteral("a.kforge"));
        const QString b = m_dir.filePath(QStringLiteral("b.kforge"));
        for (const QString &path : {a, b}) {
            SessionStore maker;
            QVERIFY2(maker.create(path, taskFolder()), qPrintable(maker.errorString()));
        }
        SessionStore store;
        SessionController sessions(&store, settings, log);
        QSignalSpy sessionOpened(&sessions, &SessionController::sessionOpened);
        QSignalSpy replacing(&sessions, &SessionController::replacing);
        sessions.openSessionAsync(a);
        QVERIFY(sessions.openSession(b));
        QTest::qWait(300); // time for a's load to come back, were it still wanted
        QCOMPARE(sessionOpened.count(), 1);
        QCOMPARE(sessionOpened.first().at(0).toString(), b);
        QCOMPARE(store.path(), b);
        QCOMPARE(replacing.count(), 2);
        QCOMPARE(settings.recentFiles(), QStringList{b});

        // A task folder still loading does not replace a session opened after it (one loaded before its
        // continuation was attached has been adopted already, and is replaced by the session).
        QSignalSpy taskOpened(&sessions, &SessionController::taskOpened);
        sessions.openTaskFolder(taskFolder());
        const qsizetype before = taskOpened.count();
        QVERIFY(sessions.openSession(a));
        QTest::qWait(500);
        QCOMPARE(taskOpened.count(), before);
        QCOMPARE(store.path(), a);
    }

    void paths_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("withSuffix");
        QTest::addColumn<bool>("isSession");
        QTest::addRow("plain") << QStringLiteral("/tmp/mine") << QStringLiteral("/tmp/mine.kforge") << false;
        QTest::addRow("session") << QStringLiteral("/tmp/mine.kforge") << QStringLiteral("/tmp/mine.kforge") << true;
        QTest::addRow("other suffix") << QStringLiteral("/tmp/mine.db") << QStringLiteral("/tmp/mine.db") << false;
    }

    void paths()
    {
        QFETCH(QString, file);
        QFETCH(QString, withSuffix);
        QFETCH(bool, isSession);
        QCOMPARE(SessionController::withSessionSuffix(file), withSuffix);
        QCOMPARE(SessionController::isSessionFile(file), isSession);
        QCOMPARE(SessionController::displayPath(QDir::homePath() + QStringLiteral("/x/y.kforge")),
                 QStringLiteral("~/x/y.kforge"));
        QCOMPARE(SessionController::displayPath(file), file);
    }
};

QTEST_GUILESS_MAIN(TestSessionController)
#include "tst_sessioncontroller.moc"
