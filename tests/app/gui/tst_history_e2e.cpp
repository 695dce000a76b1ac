// Issue 37, items 5 and 10, on the real main window at 1280×800 and 1920×1080, with the recorded H200 session (two
// finished rounds, seven answers, one stored answer about a pair): Round Control shows the session's history, rounds
// and candidates with their outcomes; Preview Prompt shows a prompt that can be read, and it is gone once another
// task is opened; Reasoning lists all seven answers; Compare offers the stored analysis; the next start reopens the
// last session, and says so, without a dialog, when it is gone. Screenshots go to test-artifacts/history/.
#include "app/gui/mainwindow.h"
#include "core/log/loghub.h"
#include "core/session/sessionhistory.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "guitesthelpers.h"
#include "views/compare/comparepanel.h"
#include "views/reasoning/reasoningentriesmodel.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/promptview.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/roundcontrol/roundhistorymodel.h"
#include "views/roundcontrol/roundprogressmodel.h"
#include "views/variants/variantselection.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTest>

using namespace kforge;

namespace {

const QString docsSession = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge");
const QString scaleTask = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/tasks/scale");
const QString shots = QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/history");

// Visible widgets of `root` shown smaller than they ask for, or cut by what holds them.
QStringList clipped(QWidget *root)
{
    QStringList out;
    for (QAbstractButton *b : root->findChildren<QAbstractButton *>()) {
        if (!b->isVisible() || b->text().isEmpty() || !qobject_cast<QPushButton *>(b))
            continue;
        const QSize need = b->minimumSizeHint();
        const QRect seen = b->visibleRegion().boundingRect();
        if (b->width() < need.width() || b->height() < need.height() || (!seen.isEmpty() && seen.size() != b->size()))
            out << b->text();
    }
    return out;
}

int rowsShown(const QTableView *view)
{
    return view->viewport()->height() / std::max(1, view->verticalHeader()->defaultSectionSize());
}

} // namespace

class TestHistory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        const QString missing = test::guiTestSetUp(m_dir, {docsSession, scaleTask});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    void historyAndPreview_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void historyAndPreview()
    {
        QFETCH(QSize, size);
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        Settings settings(m_dir.filePath(QStringLiteral("history-%1.ini").arg(tag)));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, size));
        QVERIFY(w.openSession(sessionCopy(tag)));
        RoundControlPanel *rounds = w.roundControlPanel();
        w.dockOf(rounds)->raise();

        // ---- Round Control: the two finished rounds, the last one's candidates, counted as done
        QTRY_COMPARE(rounds->roundsModel()->rowCount(), 2);
        QCOMPARE(rounds->currentPage(), RoundControlPanel::PageRounds);
        QCOMPARE(rounds->progressModel()->rowCount(), 3);
        auto *bar = rounds->findChild<QProgressBar *>();
        QVERIFY(bar && bar->isVisible());
        QCOMPARE(bar->text(), QStringLiteral("3 of 3 candidates done"));
        QVERIFY2(rounds->usageText().startsWith(QStringLiteral("Tokens: 8,796 this round, 17,236 in the session")),
                 qPrintable(rounds->usageText()));
        QVERIFY2(rounds->historyText().startsWith(QStringLiteral("Rounds: 2 · answers: 6")), qPrintable(rounds->historyText()));
        QVERIFY2(rowsShown(rounds->roundsView()) >= 2, qPrintable(QString::number(rowsShown(rounds->roundsView()))));
        QVERIFY2(rowsShown(rounds->progressView()) >= 3, qPrintable(QString::number(rowsShown(rounds->progressView()))));
        // Every column of the rounds table on screen, none cut short.
        const QHeaderView *header = rounds->roundsView()->horizontalHeader();
        for (int c = 0; c < header->count(); ++c) {
            const QString title = rounds->roundsModel()->headerData(c, Qt::Horizontal).toString();
            QVERIFY2(header->sectionSize(c) >= header->fontMetrics().horizontalAdvance(title) + 8, qPrintable(title));
        }
        QVERIFY2(clipped(&w).isEmpty(), qPrintable(clipped(&w).join(QStringLiteral(", "))));
        test::saveShot(&w, shots, QStringLiteral("roundcontrol-history-") + tag);

        // ---- Preview Prompt: a page of its own, readable at this size
        auto *preview = rounds->findChild<QPushButton *>(QStringLiteral("preview"));
        QVERIFY(preview && preview->isEnabled());
        QTest::mouseClick(preview, Qt::LeftButton);
        QCOMPARE(rounds->currentPage(), RoundControlPanel::PagePrompt);
        QPlainTextEdit *edit = rounds->promptEdit();
        QVERIFY(edit->isVisible());
        QVERIFY(edit->toPlainText().contains(QLatin1String("diag")));
        const int lines = edit->viewport()->height() / edit->fontMetrics().lineSpacing();
        qInfo("%s: the prompt preview shows %d lines of %d px wide", qPrintable(tag), lines, edit->viewport()->width());
        QVERIFY2(lines >= (size.height() >= 1080 ? 30 : 20), qPrintable(QString::number(lines)));
        QCOMPARE(edit->visibleRegion().boundingRect().size(), edit->size());
        QVERIFY2(clipped(&w).isEmpty(), qPrintable(clipped(&w).join(QStringLiteral(", "))));
        test::saveShot(&w, shots, QStringLiteral("roundcontrol-preview-") + tag);

        // ---- Reasoning: all seven answers, none looked at yet
        ReasoningPanel *reasoning = w.reasoningPanel();
        w.dockOf(reasoning)->raise();
        QTRY_COMPARE(reasoning->model()->rowCount(), 7);
        QCOMPARE(reasoning->findChild<QComboBox *>()->placeholderText(),
                 QStringLiteral("Answers in this session: 7 — choose one"));

        // ---- Compare: the stored answer about #6 and #8 is offered
        ComparePanel *compare = w.comparePanel();
        w.dockOf(compare)->raise();
        QTRY_COMPARE(compare->storedBox()->count(), 1);
        QVERIFY(compare->storedBox()->isVisible());
        compare->showStored(0);
        QCOMPARE(w.selection()->comparePair(), std::make_pair(qint64(6), qint64(8)));
        QVERIFY(compare->pairAnswersText().size() > 500);
        QCOMPARE(compare->storedBox()->currentIndex(), 0); // the chooser names the pair shown
        test::saveShot(&w, shots, QStringLiteral("compare-stored-") + tag);

        // ---- Another task: no prompt, rounds or answers of the diag_matmul session stay
        QSignalSpy opened(&w, &MainWindow::taskOpened);
        w.openTaskFolder(scaleTask);
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
        QVERIFY(rounds->promptEdit()->toPlainText().isEmpty());
        QCOMPARE(rounds->roundsModel()->rowCount(), 0);
        QCOMPARE(rounds->progressModel()->rowCount(), 0);
        QVERIFY(!bar->isVisibleTo(rounds));
        QCOMPARE(reasoning->model()->rowCount(), 0);
        QTRY_VERIFY(!compare->storedBox()->isVisibleTo(compare));
        QVERIFY(rounds->previewPrompt());
        QVERIFY(!rounds->promptEdit()->toPlainText().contains(QLatin1String("diag")));
    }

    void reopensTheLastSession()
    {
        const QString ini = m_dir.filePath(QStringLiteral("reopen.ini"));
        const QString session = sessionCopy(QStringLiteral("reopen"));
        LogHub log;
        {
            Settings settings(ini);
            settings.setWorkers({});
            MainWindow w(settings, log);
            QVERIFY(test::showAt(w, {1280, 800}));
            QVERIFY(w.openSession(session));
            QVERIFY(w.close());
        }
        {
            // The next start without a path (what main() does): the session comes back with its history.
            Settings settings(ini);
            MainWindow w(settings, log);
            QVERIFY(test::showAt(w, {1280, 800}));
            QSignalSpy opened(&w, &MainWindow::sessionOpened);
            QVERIFY(w.reopenLastSession());
            QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
            QCOMPARE(QFileInfo(w.session()->path()).canonicalFilePath(), QFileInfo(session).canonicalFilePath());
            QTRY_COMPARE(w.roundControlPanel()->roundsModel()->rowCount(), 2);
            QVERIFY(w.close());
        }
        // Gone: said in the status bar and the log, not in a dialog; nothing is opened.
        QVERIFY(QFile::remove(session));
        Settings settings(ini);
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1280, 800}));
        QSignalSpy failed(&w, &MainWindow::openFailed);
        QVERIFY(!w.reopenLastSession());
        QTest::qWait(200);
        QVERIFY(failed.isEmpty());
        QVERIFY(!w.session()->isOpen());
        const QString message = w.statusBar()->currentMessage();
        QVERIFY2(message.contains(QLatin1String("no longer exists")) && message.contains(QLatin1String("reopen.kforge")),
                 qPrintable(message));
        const auto entries = log.entries();
        QVERIFY(std::any_of(entries.begin(), entries.end(),
                            [](const LogEntry &e) { return e.message.contains(QLatin1String("no longer exists")); }));
        for (QWidget *top : QApplication::topLevelWidgets())
            QVERIFY2(!(qobject_cast<QMessageBox *>(top) && top->isVisible()), "an error dialog at start");
        QVERIFY(w.findChildren<QMessageBox *>().isEmpty());
        QVERIFY(settings.lastSession().isEmpty()); // said once
        test::saveShot(&w, shots, QStringLiteral("reopen-gone-1280x800"));
    }

private:
    QString sessionCopy(const QString &name)
    {
        const QString file = m_dir.filePath(name + QStringLiteral(".kforge"));
        QFile::remove(file);
        if (!QFile::copy(docsSession, file))
            return {};
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        return file;
    }

    QTemporaryDir m_dir;
};

QTEST_MAIN(TestHistory)
#include "tst_history_e2e.moc"
