// Issue 37, items 1, 2 and 9, on the real MainWindow driven as a user drives it:
// - an API key typed in Settings → Models where no keychain service runs: Apply says at once, on the page, that it
//   was not stored, names the environment variable and offers a file only the user can read (with the risk);
//   the file is written with mode 0600 and read by the key lookup; OK does not close over a failed store; and a
//   new dialog (as after a restart) never claims "kept in the system keychain" for a key that is not there. A
//   local server needs no key.
// - a worker whose ssh cannot resolve its host: the banner gives ssh's own words and not the failed command as
//   advice; its button, named as everywhere "Settings → Workers…", opens the page, whose Status column shows the
//   exact error and what to do; Test runs the handshake of a failing and of a working command without blocking.
// - Ctrl+Enter on the session's unmeasured reference measures it; again on it, a new visible evaluation.
// Screenshots in test-artifacts/settings/.
#include "app/gui/mainactions.h"
#include "app/gui/mainwindow.h"
#include "app/gui/noticebar.h"
#include "core/llm/credentials.h"
#include "core/llm/endpointconfig.h"
#include "core/llm/endpointpresets.h"
#include "core/log/loghub.h"
#include "core/queue/evaluationqueue.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/workbench/workbench.h"
#include "guitesthelpers.h"
#include "views/editor/kerneleditor.h"
#include "views/settings/endpointspage.h"
#include "views/settings/generalpage.h"
#include "views/settings/settingsdialog.h"
#include "views/settings/workerspage.h"

#include <Qsci/qsciscintilla.h>

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

const QString fixtures = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/workers/");
const QString taskFolder = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/diag_matmul");

QString unreachable()
{
    return u"\""_s + fixtures + u"unreachable-host.sh\" gpu-box"_s;
}

QString working()
{
    return u"\""_s + fixtures + u"scripted-worker.sh\" normal"_s;
}

WorkerConfig worker(const QString &name, const QString &command)
{
    WorkerConfig c;
    c.name = name;
    c.command = command;
    return c;
}

void shot(QWidget *w, const QString &name)
{
    test::saveShot(w, QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/settings"), name);
}

SettingsDialog *openSettings(MainWindow &w, QAction *action)
{
    action->trigger();
    auto *dialog = w.findChild<SettingsDialog *>();
    return dialog && QTest::qWaitForWindowExposed(dialog) ? dialog : nullptr;
}

// The background of the key's failure box, inside its border.
QColor boxColour(QWidget *box)
{
    QTest::qWait(50); // the style sheet polished again
    return box->grab().toImage().pixelColor(4, box->height() / 2);
}

QString noticeButtonText(MainWindow &w)
{
    for (QToolButton *b : w.notice()->findChildren<QToolButton *>())
        if (b->defaultAction())
            return b->defaultAction()->text();
    return {};
}

} // namespace

class TestSettingsE2e : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        // No keychain service, for real: the session bus this process would ask is not there (as on a headless
        // machine, over VNC or in WSL). Set before anything talks to D-Bus.
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/kforge-test-no-bus");
        const QString missing = test::guiTestSetUp(m_dir, {taskFolder, fixtures + u"unreachable-host.sh"_s});
        if (!missing.isEmpty())
            QSKIP(qPrintable(missing));
        QDir(QFileInfo(Credentials::keyFilePath(u"x"_s)).absolutePath()).removeRecursively();
    }

    void cleanupTestCase() { QDir(QFileInfo(Credentials::keyFilePath(u"x"_s)).absolutePath()).removeRecursively(); }

    void keyWithoutKeychain()
    {
        if (!Credentials::keychainAvailable())
            QSKIP("built without QtKeychain: keys go into the key file directly");
        Settings settings(m_dir.filePath(u"keys.ini"_s));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1280, 800}));

        SettingsDialog *dialog = openSettings(w, w.actions()->settings);
        QVERIFY(dialog);
        dialog->showPage(SettingsDialog::Models);
        EndpointsPage *models = dialog->models();
        models->addFromPreset(u"openai"_s);
        QCOMPARE(models->keyStoreBox()->currentIndex(), 0); // the keychain, by default
        models->keyEdit()->setFocus();
        QTest::keyClicks(models->keyEdit(), u"sk-test-1234"_s);
        QVERIFY2(models->keyStatus().contains(u"system keychain when you apply"_s), qPrintable(models->keyStatus()));

        // Apply: the failure is said at once, on the page, with both ways out and the risk of the file.
        QSignalSpy stored(models, &EndpointsPage::keyStored);
        QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Apply), Qt::LeftButton);
        QVERIFY(stored.wait(15000));
        const QString error = stored.constFirst().at(1).toString();
        QVERIFY2(!error.isEmpty(), "the keychain took the key: this machine has a keychain service after all");
        const QString problem = models->keyProblem();
        QVERIFY2(problem.startsWith(u"The API key of OpenAI was not stored: "_s), qPrintable(problem));
        QVERIFY(problem.contains(error));
        QVERIFY(problem.contains(u"OPENAI_API_KEY"_s));
        const QString file = Credentials::keyFilePath(u"openai"_s);
        QVERIFY2(problem.contains(QDir::toNativeSeparators(file)), qPrintable(problem));
        QVERIFY(problem.contains(u"not encrypted"_s));
        QVERIFY(models->keepInFileButton()->isVisible());
        QVERIFY(models->isVisible()); // the page where Apply was pressed
        QVERIFY2(!models->keyStatus().contains(u"Kept in the system keychain"_s), qPrintable(models->keyStatus()));
        QVERIFY(models->keyStatus().startsWith(u"No key in the system keychain ("_s));
        QVERIFY(models->keyEdit()->placeholderText() != u"Unchanged (kept in the system keychain)"_s);
        shot(dialog, u"keychain-failure"_s);

        // The theme switched to dark with the dialog open: the box follows, its text readable on it (it kept the light
        // theme's pale yellow under the dark theme's light text), and back to light.
        QWidget *box = models->keepInFileButton()->parentWidget();
        QCOMPARE(box->objectName(), u"keyProblem"_s);
        const QColor lightBox = boxColour(box);
        QVERIFY2(lightBox.lightness() > 160, qPrintable(lightBox.name()));
        for (const auto &[theme, dark] : {std::pair{u"Dark"_s, true}, std::pair{u"Light"_s, false}}) {
            dialog->showPage(SettingsDialog::General);
            auto *general = static_cast<GeneralPage *>(dialog->page(SettingsDialog::General));
            general->themeBox()->setCurrentIndex(general->themeBox()->findText(theme));
            QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Apply), Qt::LeftButton);
            QCOMPARE(settings.theme(), dark ? Theme::Dark : Theme::Light);
            dialog->showPage(SettingsDialog::Models);
            QVERIFY(box->isVisible()); // the failure is still told
            const QColor colour = boxColour(box);
            const QColor text = box->findChild<QLabel *>()->palette().color(QPalette::WindowText);
            QVERIFY2(dark ? colour.lightness() < 110 : colour.lightness() > 160, qPrintable(colour.name()));
            QVERIFY2(std::abs(colour.lightness() - text.lightness()) > 100,
                     qPrintable(colour.name() + u" under "_s + text.name()));
            if (dark)
                shot(dialog, u"keychain-failure-dark"_s);
        }

        // The fallback: the same key into a file only this user can read, and the lookup finds it there.
        QTest::mouseClick(models->keepInFileButton(), Qt::LeftButton);
        QVERIFY(models->keyProblem().isEmpty());
        QVERIFY(QFileInfo::exists(file));
        QCOMPARE(QFile::permissions(file) & ~(QFileDevice::ReadUser | QFileDevice::WriteUser),
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QCOMPARE(models->keyStoreBox()->currentIndex(), 1);
        QVERIFY2(models->keyStatus().startsWith(u"Kept in "_s + QDir::toNativeSeparators(file)),
                 qPrintable(models->keyStatus()));
        shot(dialog, u"key-in-file"_s);
        {
            Credentials credentials;
            EndpointConfig openai = *EndpointPresets::find(u"openai"_s);
            openai.apiKeyEnv = u"KFORGE_TEST_UNSET_VARIABLE"_s;
            ApiKeyLookup found;
            credentials.lookup(openai, this, [&found](const ApiKeyLookup &r) { found = r; });
            QTRY_COMPARE(found.source, ApiKeyLookup::File);
            QCOMPARE(found.key, u"sk-test-1234"_s);
        }

        // OK over a key that fails to store: the dialog stays, on Models, and says why.
        models->addFromPreset(u"deepseek"_s);
        QTest::keyClicks(models->keyEdit(), u"sk-other"_s);
        dialog->showPage(SettingsDialog::General);
        stored.clear();
        QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY(stored.wait(15000));
        QTest::qWait(50);
        QVERIFY(dialog->isVisible());
        QVERIFY(models->isVisible());
        QVERIFY(models->keyProblem().startsWith(u"The API key of DeepSeek was not stored: "_s));
        dialog->close();

        // As after a restart: the endpoints come from the settings file, where the keys are is found out again.
        QCOMPARE(settings.endpoints().size(), 2);
        SettingsDialog *again = nullptr;
        QTRY_VERIFY((again = w.findChild<SettingsDialog *>()) == nullptr || !again->isVisible());
        delete again;
        again = openSettings(w, w.actions()->settings);
        QVERIFY(again);
        again->showPage(SettingsDialog::Models);
        EndpointsPage *reopened = again->models();
        const auto rowOf = [reopened](const QString &id) {
            const QList<EndpointConfig> all = reopened->endpoints();
            for (int i = 0; i < all.size(); ++i)
                if (all.at(i).id == id)
                    return i;
            return -1;
        };
        reopened->list()->setCurrentRow(rowOf(u"openai"_s));
        QVERIFY2(reopened->keyStatus().startsWith(u"Kept in "_s), qPrintable(reopened->keyStatus()));
        QCOMPARE(reopened->keyEdit()->placeholderText(), u"Unchanged (kept in a file readable only by you)"_s);
        reopened->list()->setCurrentRow(rowOf(u"deepseek"_s)); // its store failed
        QTRY_VERIFY(!reopened->keyStatus().startsWith(u"Checking"_s));
        QVERIFY2(reopened->keyStatus().startsWith(u"No key in the system keychain ("_s), qPrintable(reopened->keyStatus()));
        QCOMPARE(reopened->keyEdit()->placeholderText(), u"Not stored: type the key"_s);

        // A server on this machine needs no key: said so, and not demanded.
        reopened->addFromPreset(u"vllm"_s);
        QTRY_VERIFY(!reopened->keyStatus().startsWith(u"Checking"_s));
        QVERIFY2(reopened->keyStatus().endsWith(u"None is needed for a server on this machine."_s),
                 qPrintable(reopened->keyStatus()));
        QCOMPARE(reopened->keyEdit()->placeholderText(), u"Optional for a server on this machine"_s);
        QVERIFY(!reopened->endpoints().constLast().needsKey());
        again->close();
    }

    void failingAndWorkingWorker()
    {
        Settings settings(m_dir.filePath(u"workers.ini"_s));
        settings.setWorkers({worker(u"gpu-box"_s, unreachable())});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1280, 800}));
        QTRY_COMPARE_WITH_TIMEOUT(w.workbench()->readiness().state(), WorkerReadiness::State::CannotStart, 20000);

        // The banner: ssh's own words, the page by its one name, never the failed command as advice.
        QTRY_VERIFY(w.notice()->isVisible());
        const QString notice = w.notice()->text();
        QVERIFY2(notice.contains(u"(ssh: Could not resolve hostname gpu-box: Name or service not known)"_s),
                 qPrintable(notice));
        QVERIFY2(!notice.contains(u"ssh gpu-box kforge-worker"_s), qPrintable(notice));
        QVERIFY(notice.contains(u"Settings → Workers"_s));
        QCOMPARE(noticeButtonText(w), u"Settings → &Workers…"_s);
        // The Log's red line starts with ssh's words too (it showed "The worker exited before it was ready (exit code
        // 255)…" and the cause only in its tooltip); the whole error follows on the next lines.
        const auto workerError = [&log] {
            for (const LogEntry &e : log.entries())
                if (e.level == LogLevel::Error && e.source == LogSource::Worker)
                    return e.message;
            return QString();
        };
        QTRY_VERIFY(!workerError().isEmpty()); // the hub delivers in batches
        const QString logged = workerError();
        QCOMPARE(logged.section(u'\n', 0, 0),
                 u"GPU worker gpu-box: ssh: Could not resolve hostname gpu-box: Name or service not known"_s);
        QVERIFY2(logged.contains(u"exit code 255"_s), qPrintable(logged));
        QMenu *tools = nullptr;
        for (QAction *a : w.menuBar()->actions())
            if (a->text() == u"&Tools")
                tools = a->menu();
        QVERIFY(tools);
        QStringList toolTexts;
        for (QAction *a : tools->actions())
            toolTexts << a->text();
        QCOMPARE(toolTexts, (QStringList{u"&Settings…"_s, u"Settings → &Workers…"_s}));
        // The same name in the Getting Started guide and its button.
        w.actions()->gettingStarted->trigger();
        QDialog *guide = nullptr;
        QTRY_VERIFY((guide = w.findChild<QDialog *>(u"gettingStarted"_s)) != nullptr);
        QStringList guideButtons;
        for (QPushButton *b : guide->findChildren<QPushButton *>())
            guideButtons << b->text();
        QVERIFY2(guideButtons.contains(u"Settings → &Workers…"_s), qPrintable(guideButtons.join(u", "_s)));
        guide->close();
        shot(&w, u"worker-banner"_s);

        // Its button opens the page; the running worker's status is there, with the exact error and what to do.
        SettingsDialog *dialog = openSettings(w, w.actions()->configureWorkers);
        QVERIFY(dialog);
        WorkersPage *page = dialog->workers();
        QVERIFY(page->isVisible());
        QCOMPARE(page->table()->rowCount(), 1);
        QCOMPARE(page->status(0).state, WorkerStatus::State::Failed);
        QCOMPARE(page->table()->item(0, 3)->text(),
                 u"Failed: ssh: Could not resolve hostname gpu-box: Name or service not known"_s);

        // A second, working worker line; then Test runs both handshakes without holding the window.
        page->addWorker();
        page->table()->item(1, 0)->setText(u"local"_s);
        page->table()->item(1, 1)->setText(working());
        QCOMPARE(page->status(1).state, WorkerStatus::State::Unknown);
        page->table()->clearSelection();
        QSignalSpy tested(page, &WorkersPage::tested);
        QElapsedTimer clock;
        clock.start();
        QTest::mouseClick(page->testButton(), Qt::LeftButton);
        QVERIFY2(clock.elapsed() < 50, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(page->testsRunning(), 2);
        QCOMPARE(page->table()->item(1, 3)->text(), u"Starting…"_s);
        QTRY_COMPARE_WITH_TIMEOUT(tested.size(), 2, 20000);
        QCOMPARE(page->status(0).state, WorkerStatus::State::Failed);
        QCOMPARE(page->status(1).state, WorkerStatus::State::Connected);
        QCOMPARE(page->table()->item(1, 3)->text(), u"Connected: Scripted GPU, sm_80"_s);

        page->table()->setCurrentCell(0, 1);
        QVERIFY2(page->detailsText().contains(u"What to do: The host name in the command is unknown here"_s),
                 qPrintable(page->detailsText()));
        shot(dialog, u"workers-failing-selected"_s);
        page->table()->setCurrentCell(1, 1);
        QVERIFY2(page->detailsText().contains(u"Connected: Scripted GPU (compute capability 8.0, sm_80)"_s),
                 qPrintable(page->detailsText()));
        QVERIFY(page->detailsText().contains(u"Worker 0.0.0-scripted, protocol 1, kernel ABI 1"_s));
        shot(dialog, u"workers-working-selected"_s);

        // A long error with a path in it: the Status column shows every status whole (wrapped, the row as tall as
        // it needs), and Ctrl+C on the table copies the selected worker's status exactly as the box shows it.
        const QString missing = u"/opt/kforge/builds/2026-12-07/release-with-debug-info/bin/kforge-worker-not-here"_s;
        page->addWorker();
        page->table()->item(2, 0)->setText(u"missing"_s);
        page->table()->item(2, 1)->setText(missing + u" --device 0"_s);
        page->table()->clearSelection();
        page->table()->selectRow(2);
        tested.clear();
        QTest::mouseClick(page->testButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tested.size(), 1, 20000);
        QCOMPARE(page->status(2).state, WorkerStatus::State::Failed);
        QVERIFY2(page->status(2).summary().contains(missing), qPrintable(page->status(2).summary()));
        QTest::qWait(50); // the rows' heights follow their new text
        for (int row = 0; row < 3; ++row)
            for (int column : {1, 3}) { // Command and Status
                const QModelIndex cell = page->table()->model()->index(row, column);
                const QString text = cell.data().toString();
                const QRect rect = page->table()->visualRect(cell);
                // The margins take at most 8 pixels of the cell's width, with the status's icon 32.
                const QFont font = cell.data(Qt::FontRole).value<QFont>().resolve(page->table()->font());
                const int need = QFontMetrics(font)
                                     .boundingRect(QRect(0, 0, rect.width() - (column == 3 ? 32 : 8), 1 << 20),
                                                   Qt::TextWordWrap | Qt::TextWrapAnywhere, text)
                                     .height();
                QVERIFY2(rect.height() >= need, qPrintable(u"%1: %2 < %3"_s.arg(text).arg(rect.height()).arg(need)));
            }
        QVERIFY(page->table()->rowHeight(2) >= 3 * page->table()->fontMetrics().lineSpacing());
        page->table()->setFocus();
        page->table()->setCurrentCell(2, 0);
        QApplication::clipboard()->clear();
        QTest::keyClick(page->table(), Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(), page->detailsText());
        QVERIFY2(page->detailsText().contains(page->status(2).error.trimmed()), qPrintable(page->detailsText()));
        shot(dialog, u"workers-long-error"_s);
        page->removeSelected();
        QCOMPARE(page->table()->rowCount(), 2);

        // OK: the pool follows, and the working worker makes evaluations possible.
        QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(w.workbench()->readiness().canEvaluate(), 20000);
    }

    void ctrlEnterOnReference()
    {
        Settings settings(m_dir.filePath(u"reference.ini"_s));
        settings.setWorkers({worker(u"stand-in"_s, working())});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1280, 800}));
        QTRY_VERIFY_WITH_TIMEOUT(w.workbench()->readiness().canEvaluate(), 20000);
        QSignalSpy opened(&w, &MainWindow::taskOpened);
        QSignalSpy failed(&w, &MainWindow::openFailed);
        w.openTaskFolder(taskFolder);
        QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty() || !failed.isEmpty(), 20000);
        if (!failed.isEmpty()) {
            QStringList visible;
            for (QWidget *t : QApplication::topLevelWidgets())
                if (t->isVisible())
                    visible << QString::fromLatin1(t->metaObject()->className()) + u':' + t->windowTitle();
            QFAIL(qPrintable(failed.constFirst().constFirst().toString() + u" / "_s + visible.join(u", "_s)));
        }
        SessionStore *store = w.session();
        const qint64 reference = store->population().reference()->id;
        QCOMPARE(store->evaluations().ofVariant(reference).size(), 0);
        KernelEditor *editor = w.editor();
        QCOMPARE(editor->variantId(editor->currentIndex()), reference);

        // Unmeasured: Ctrl+Enter measures it.
        QVERIFY(editor->evaluateAction()->isEnabled());
        QSignalSpy added(store, &SessionStore::evaluationAdded);
        editor->editor(editor->currentIndex())->setFocus();
        QTest::keyClick(editor->editor(editor->currentIndex()), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(editor->status(editor->currentIndex()), u"Queued for evaluation…"_s);
        QTRY_COMPARE_WITH_TIMEOUT(store->evaluations().ofVariant(reference).size(), 1, 120000);

        // Measured: again is a new evaluation, said as such; the first one stays.
        QTRY_VERIFY_WITH_TIMEOUT(!w.workbench()->queue()->isEvaluating(reference), 60000);
        QTest::keyClick(editor->editor(editor->currentIndex()), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY2(editor->status(editor->currentIndex()).startsWith(u"Measuring again as evaluation 2; evaluation 1 ("_s),
                 qPrintable(editor->status(editor->currentIndex())));
        QTRY_COMPARE_WITH_TIMEOUT(store->evaluations().ofVariant(reference).size(), 2, 120000);
        QTRY_VERIFY2(editor->status(editor->currentIndex()).contains(u"(evaluation 2; before: "_s),
                     qPrintable(editor->status(editor->currentIndex())));
    }
};

QTEST_MAIN(TestSettingsE2e)
#include "tst_settings_e2e.moc"
