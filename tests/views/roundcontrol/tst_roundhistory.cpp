// Round Control on a session with a history (issue 37, items 5 and 10): a recorded session of two finished rounds
// (docs/h200-diag_matmul-gui.kforge, a real SQLite file) opens on its Rounds page with every round, its outcome and,
// for the chosen round, its candidates; the progress bar counts the shown round, not the next one's settings. The
// prompt preview gets a page of its own, readable in a dock of the size the window gives it at 1280×800, and no
// preview or review of one session survives opening another (or closing it).
#include "roundharness.h"
#include "core/session/sessionhistory.h"
#include "views/roundcontrol/promptview.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/roundcontrol/roundhistorymodel.h"
#include "views/roundcontrol/roundprogressmodel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDialog>
#include <QFile>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace kforge;
using namespace kforge::test;

namespace {

// The columns of `model` from `first` to `last`, a line per row, cells joined by " | ".
QString dump(const QAbstractItemModel *model, int first, int last)
{
    QStringList lines;
    for (int row = 0; row < model->rowCount(); ++row) {
        QStringList cells;
        for (int c = first; c <= last; ++c)
            cells << model->index(row, c).data().toString();
        lines << cells.join(QStringLiteral(" | "));
    }
    return lines.join(u'\n');
}

} // namespace

class TestRoundHistory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void showsTheRoundsOfAStoredSession()
    {
        SessionStore store;
        Settings settings(m_dir.filePath(QStringLiteral("history.ini")));
        LlmClient llm;
        ScriptedEvaluator evaluator(&scriptedResult);
        RoundRunner runner(&store, &llm, &evaluator);
        RoundControlPanel panel(&store, &runner, &settings);
        QAbstractItemModelTester rounds(panel.roundsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester progress(panel.progressModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(panel.currentPage(), RoundControlPanel::PageSetup); // nothing to show yet

        QVERIFY2(store.open(sessionCopy(QStringLiteral("history"))), qPrintable(store.errorString()));
        // Read off the GUI thread: the rows come a moment later.
        QTRY_COMPARE(panel.roundsModel()->rowCount(), 2);
        QCOMPARE(dump(panel.roundsModel(), RoundHistoryModel::Round, RoundHistoryModel::Tokens),
                 QStringLiteral("1 | finished | 3 | 1 of 3 | 65.2× (#6) | 8,440\n"
                                "2 | finished | 3 | 3 of 3 | 63.4× (#8) | 8,796"));
        QCOMPARE(panel.historyText(),
                 QStringLiteral("Rounds: 2 · answers: 6 · correct variants: 4 · best 65.2× (#6, round 1)"));
        // The session opens on its history, the last round chosen, its candidates and their outcomes below.
        QCOMPARE(panel.currentPage(), RoundControlPanel::PageRounds);
        QCOMPARE(panel.roundsView()->currentIndex().row(), 1);
        QCOMPARE(dump(panel.progressModel(), RoundProgressModel::Candidate, RoundProgressModel::Exemplars),
                 QStringLiteral("answer 1 | done | #8 | 63.4× | 2,977 | #6 (65.2×), #1 (1.000×)\n"
                                "answer 2 | done | #7 | 41.2× | 2,734 | #6 (65.2×), #1 (1.000×)\n"
                                "answer 3 | done | #9 | 58.7× | 3,085 | #6 (65.2×), #1 (1.000×)"));
        auto *bar = panel.findChild<QProgressBar *>();
        QVERIFY(bar && bar->isVisibleTo(&panel));
        QCOMPARE(bar->text(), QStringLiteral("3 of 3 candidates done"));
        QVERIFY2(panel.statusText().startsWith(QLatin1String("Round 2 finished")), qPrintable(panel.statusText()));

        // Round 1: one correct answer, one wrong, one that did not compile.
        panel.roundsView()->selectRow(0);
        QCOMPARE(panel.progressModel()->rowCount(), 3);
        const QString first = dump(panel.progressModel(), RoundProgressModel::Candidate, RoundProgressModel::Speedup);
        QVERIFY2(first.startsWith(QStringLiteral("answer 1 | done | #6 | 65.2×\nanswer 2 | ")), qPrintable(first));
        QVERIFY2(first.contains(QLatin1String("| #5 |")) && first.contains(QLatin1String("| #4 |")), qPrintable(first));
        qInfo("round 1: %s", qPrintable(first));
        QCOMPARE(first.count(QLatin1String("| failed")), 2);
        QCOMPARE(bar->text(), QStringLiteral("3 of 3 candidates done"));
        QVERIFY2(panel.statusText().startsWith(QLatin1String("Round 1 finished")), qPrintable(panel.statusText()));
        // A candidate of the history shows the prompt it received.
        panel.progressView()->selectRow(0);
        QVERIFY(!panel.promptEdit()->toPlainText().isEmpty());
        QCOMPARE(panel.promptEdit()->toPlainText(), store.exchanges().prompt(1)->rendered);
        QVERIFY2(panel.promptView()->label().contains(QLatin1String("round 1, answer 1")),
                 qPrintable(panel.promptView()->label()));

        // Closed: nothing of it stays.
        store.close();
        QCOMPARE(panel.roundsModel()->rowCount(), 0);
        QCOMPARE(panel.progressModel()->rowCount(), 0);
        QVERIFY(panel.promptEdit()->toPlainText().isEmpty());
        QVERIFY(!bar->isVisibleTo(&panel));
    }

    void previewHasAPageOfItsOwn_data()
    {
        QTest::addColumn<QSize>("dock");
        // The Round Control dock as the default layout sizes it in a window of 1280×800 and of 1920×1080.
        QTest::newRow("1280x800") << QSize(512, 600);
        QTest::newRow("1920x1080") << QSize(760, 880);
    }

    void previewHasAPageOfItsOwn()
    {
        QFETCH(QSize, dock);
        SessionStore store;
        Settings settings(m_dir.filePath(QStringLiteral("preview.ini")));
        RoundControlPanel panel(&store, nullptr, &settings);
        panel.resize(dock);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(store.open(sessionCopy(QStringLiteral("preview-") + QString::fromLatin1(QTest::currentDataTag()))));
        QTRY_COMPARE(panel.roundsModel()->rowCount(), 2);
        QVERIFY(panel.previewPrompt());
        QCOMPARE(panel.currentPage(), RoundControlPanel::PagePrompt);
        QPlainTextEdit *edit = panel.promptEdit();
        QVERIFY(edit->isVisible());
        const int lines = edit->viewport()->height() / edit->fontMetrics().lineSpacing();
        qInfo("%s: the preview shows %d lines", QTest::currentDataTag(), lines);
        QVERIFY2(lines >= (dock.height() >= 800 ? 30 : 20), qPrintable(QString::number(lines)));
        QCOMPARE(edit->visibleRegion().boundingRect().size(), edit->size()); // not cut by the dock
        QVERIFY(edit->toPlainText().contains(QLatin1String("diag")));
        // Open in Window: the same prompt, as large as the user likes.
        QVERIFY(panel.promptView()->openButton()->isEnabled());
        QDialog *window = panel.promptView()->openInWindow();
        QVERIFY(window);
        QCOMPARE(window->findChild<QPlainTextEdit *>()->toPlainText(), edit->toPlainText());
        window->close();
        saveScreenshot(&panel, QStringLiteral("roundcontrol-preview-") + QString::fromLatin1(QTest::currentDataTag()));
    }

    void previewDoesNotSurviveASessionChange()
    {
        SessionStore store;
        Settings settings(m_dir.filePath(QStringLiteral("switch.ini")));
        RoundControlPanel panel(&store, nullptr, &settings);
        QVERIFY(store.open(sessionCopy(QStringLiteral("switch"))));
        QVERIFY(panel.previewPrompt());
        const QString diag = panel.promptEdit()->toPlainText();
        QVERIFY(diag.contains(QLatin1String("diag")));

        // Another session, of another task: the diag_matmul prompt and its exemplars are gone at once.
        const QString other = m_dir.filePath(QStringLiteral("scale.kforge"));
        QVERIFY2(store.create(other, QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/tasks/scale")),
                 qPrintable(store.errorString()));
        QVERIFY(panel.promptEdit()->toPlainText().isEmpty());
        QVERIFY(!panel.promptChoiceBox()->isVisibleTo(&panel));
        QVERIFY(!panel.promptView()->openButton()->isEnabled());
        QVERIFY2(!panel.promptView()->label().contains(QLatin1String("#")), qPrintable(panel.promptView()->label()));
        QVERIFY(panel.previewPrompt());
        QVERIFY(!panel.promptEdit()->toPlainText().contains(QLatin1String("diag")));
        QVERIFY(panel.promptEdit()->toPlainText() != diag);
        // And closing takes it too.
        store.close();
        QVERIFY(panel.promptEdit()->toPlainText().isEmpty());
    }

private:
    // A copy of the recorded H200 session, so the test never writes to docs/.
    QString sessionCopy(const QString &name)
    {
        const QString file = m_dir.filePath(name + QStringLiteral(".kforge"));
        QFile::remove(file);
        if (!QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge"), file))
            return {};
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        return file;
    }

    QTemporaryDir m_dir;
};

QTEST_MAIN(TestRoundHistory)
#include "tst_roundhistory.moc"
