// The screenshots README.md and docs/ show, taken from the real main window offscreen on the H200 session
// (docs/h200-diag_matmul-gui.kforge: two rounds run on an H200 with the real kforge-worker and a loopback LLM server
// replaying recorded answers), each scene checked for what it is meant to show. Into docs/screenshots when
// KFORGE_DOC_SHOTS is set (KFORGE_DOC_SHOTS=1 ctest -R tst_docshots), else into test-artifacts/docshots.
#include "app/gui/mainwindow.h"
#include "app/gui/noticebar.h"
#include "core/compile/cudatoolkit.h"
#include "core/llm/endpointconfig.h"
#include "core/log/loghub.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "guitesthelpers.h"
#include "views/charts/chartspanel.h"
#include "views/compare/comparepanel.h"
#include "views/diff/diffview.h"
#include "views/editor/compileonly.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/varianttabbinding.h"
#include "views/reasoning/reasoningentriesmodel.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/roundcontrol/roundhistorymodel.h"
#include "views/task/taskinfomodel.h"
#include "views/task/taskpanel.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantspanel.h"

#include <Qsci/qsciscintilla.h>

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

const QString docsSession = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge");
const QString diagMatmul = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/diag_matmul");
const QString torchMatmul = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/torch_matmul");

QString shotDir()
{
    return qEnvironmentVariableIsSet("KFORGE_DOC_SHOTS") ? QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/screenshots")
                                                         : QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/docshots");
}

void shot(QWidget *w, const QString &name)
{
    test::saveShot(w, shotDir(), name);
}

// The endpoint the H200 run used: the loopback server that replayed the recorded answers.
EndpointConfig loopback()
{
    EndpointConfig e;
    e.id = u"loopback"_s;
    e.displayName = u"Loopback replay server"_s;
    e.presetId = u"vllm"_s;
    e.baseUrl = u"http://127.0.0.1:8089/v1"_s;
    e.defaultModel = u"replay-model"_s;
    return e;
}

// The notice about the missing GPU worker is true here and not the subject of these pictures: dismissed, as a user
// who read it would. It stays closed while it would say the same (it came back at every session opened).
void dismissNotice(MainWindow &w)
{
    QTRY_VERIFY(w.notice()->isVisible());
    auto *close = w.notice()->findChild<QToolButton *>(u"dismiss"_s);
    QVERIFY(close);
    QTest::mouseClick(close, Qt::LeftButton);
    QVERIFY(!w.notice()->isVisible());
}

void raise(MainWindow &w, QWidget *panel)
{
    w.dockOf(panel)->raise();
    QTest::qWait(200);
}

// The stored answer about #6 and #8 in Reasoning.
bool showWhy(ReasoningPanel *reasoning)
{
    ReasoningEntriesModel *model = reasoning->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, 0);
        if (index.data().toString().contains(u"#6"_s) && index.data().toString().contains(u"#8"_s))
            return reasoning->showResponse(index.data(ReasoningEntriesModel::ResponseIdRole).toLongLong());
    }
    return false;
}

} // namespace

class TestDocShots : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString sessionCopy(const QString &name)
    {
        const QString file = m_dir.filePath(name + u".kforge"_s);
        QFile::remove(file);
        if (!QFile::copy(docsSession, file))
            return {};
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        return file;
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString missing = test::guiTestSetUp(m_dir, {docsSession, diagMatmul, torchMatmul});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        qInfo("screenshots into %s", qPrintable(shotDir()));
    }

    // README's two pictures and Round Control's, at 1920×1080.
    void workbench()
    {
        Settings settings(m_dir.filePath(u"workbench.ini"_s));
        settings.setWorkers({});
        settings.setEndpoints({loopback()});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1920, 1080}));
        QVERIFY(w.openSession(sessionCopy(u"workbench"_s)));
        dismissNotice(w);
        QVERIFY(w.tabs()->showVariant(8) >= 0);
        QVERIFY(w.tabs()->showVariant(6) >= 0);

        // The best variant in the editor, #6 and #8 compared (Compare, and their diff under the editor).
        w.selection()->setComparePair(6, 8);
        Q_EMIT w.variantsPanel()->compareRequested(6, 8);
        raise(w, w.comparePanel());
        QVERIFY2(w.comparePanel()->headlineText().contains(u"take the same time within noise"_s),
                 qPrintable(w.comparePanel()->headlineText()));
        // Another session opened: the same notice stays closed.
        QVERIFY(w.openSession(sessionCopy(u"workbench-again"_s)));
        QVERIFY(w.tabs()->showVariant(8) >= 0);
        QVERIFY(w.tabs()->showVariant(6) >= 0);
        w.selection()->setComparePair(6, 8);
        Q_EMIT w.variantsPanel()->compareRequested(6, 8);
        raise(w, w.comparePanel());
        QVERIFY2(!w.notice()->isVisible(), qPrintable(w.notice()->text()));
        shot(&w, u"workbench-h200-session-compare"_s);

        // The model's answer to "why is #6 faster than #8".
        ReasoningPanel *reasoning = w.reasoningPanel();
        raise(w, reasoning);
        QTRY_COMPARE(reasoning->model()->rowCount(), 7);
        QVERIFY(showWhy(reasoning));
        reasoning->renderNow();
        QVERIFY2(reasoning->answerText().contains(u"bandwidth"_s), qPrintable(reasoning->answerText()));
        shot(&w, u"h200-window-why"_s);

        // Round Control: the session's two rounds and the last one's candidates.
        RoundControlPanel *rounds = w.roundControlPanel();
        raise(w, rounds);
        QTRY_COMPARE(rounds->roundsModel()->rowCount(), 2);
        QCOMPARE(rounds->currentPage(), RoundControlPanel::PageRounds);
        QVERIFY2(rounds->historyText().startsWith(u"Rounds: 2 · answers: 6"_s), qPrintable(rounds->historyText()));
        shot(rounds, u"h200-roundcontrol"_s);
        shot(&w, u"h200-window"_s);
    }

    // Every panel on its own, at 1280×800.
    void panels()
    {
        Settings settings(m_dir.filePath(u"panels.ini"_s));
        settings.setWorkers({});
        settings.setEndpoints({loopback()});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1280, 800}));
        QVERIFY(w.openSession(sessionCopy(u"panels"_s)));
        dismissNotice(w);
        QVERIFY(w.tabs()->showVariant(6) >= 0);
        w.selection()->setSelected({6, 8}, 6);
        w.selection()->setComparePair(6, 8);

        raise(w, w.variantsPanel());
        shot(&w, u"h200-variants"_s);
        shot(w.editor(), u"h200-editor"_s);

        raise(w, w.comparePanel());
        QVERIFY(w.comparePanel()->headlineText().contains(u"within noise"_s));
        shot(&w, u"h200-compare"_s);
        QTRY_COMPARE(w.comparePanel()->storedBox()->count(), 1);
        w.comparePanel()->showStored(0);
        QVERIFY(w.comparePanel()->pairAnswersText().size() > 500);
        QTest::qWait(150);
        shot(&w, u"h200-compare-why"_s);

        ChartsPanel *charts = w.chartsPanel();
        raise(w, charts);
        QCOMPARE(charts->tabs()->count(), 3);
        for (int i = 0; i < charts->tabs()->count(); ++i) {
            charts->tabs()->setCurrentIndex(i);
            shot(&w, u"h200-charts-%1"_s.arg(i + 1));
        }

        ReasoningPanel *reasoning = w.reasoningPanel();
        raise(w, reasoning);
        QTRY_COMPARE(reasoning->model()->rowCount(), 7);
        reasoning->showVariant(6);
        reasoning->renderNow();
        QVERIFY(!reasoning->answerText().isEmpty());
        shot(&w, u"h200-reasoning"_s);
        QVERIFY(showWhy(reasoning));
        reasoning->renderNow();
        shot(&w, u"h200-reasoning-why"_s);

        Q_EMIT w.variantsPanel()->compareRequested(6, 8);
        w.dockOf(w.diffView())->raise();
        QTest::qWait(200);
        QVERIFY(w.diffView()->leftEditor()->text().contains(u"rowscale4"_s));
        shot(&w, u"h200-diff"_s);
    }

    // A compile error marked on its line: a fork of diag_matmul's reference with a typo, Ctrl+Enter without a worker.
    void compileError()
    {
        if (CudaToolkit::locateNvcc().isEmpty())
            QSKIP("no nvcc: the compile error cannot be shown");
        Settings settings(m_dir.filePath(u"compile.ini"_s));
        settings.setWorkers({});
        settings.setEndpoints({loopback()});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1920, 1080}));
        QSignalSpy opened(&w, &MainWindow::taskOpened);
        w.openTaskFolder(diagMatmul);
        QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 30000);
        dismissNotice(w);
        KernelEditor *editor = w.editor();
        editor->setCurrentIndex(editor->indexOfVariant(w.session()->population().reference()->id));
        editor->forkAction()->trigger();
        const int fork = editor->currentIndex();
        QsciScintilla *e = editor->editor(fork);
        const QString call = u"cublas_handle();"_s;
        const QStringList lines = e->text().split(u'\n');
        int line = -1;
        for (int i = 0; i < lines.size() && line < 0; ++i)
            if (lines[i].contains(u"= "_s + call))
                line = i;
        QVERIFY(line >= 0);
        e->setFocus();
        e->setCursorPosition(line, int(lines[line].indexOf(call) + call.size() - 3));
        QTest::keyClicks(e, u"_typo"_s);
        auto *compileOnly = w.findChild<CompileOnly *>();
        QVERIFY(compileOnly);
        QSignalSpy compiled(compileOnly, &CompileOnly::compiled);
        QTest::keyClick(e, Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(compiled.wait(180000));
        QCOMPARE(compiled.first().at(1).toBool(), false);
        QVERIFY(!editor->diagnostics(fork).isEmpty());
        e->setFirstVisibleLine(std::max(0, line - 12));
        shot(&w, u"mainwindow-compile-error"_s);
    }

    // A PyTorch task opened: reference.py as Python and the Task panel's overview.
    void torchTask()
    {
        Settings settings(m_dir.filePath(u"torch.ini"_s));
        settings.setWorkers({});
        settings.setEndpoints({loopback()});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1400, 860}));
        QSignalSpy opened(&w, &MainWindow::taskOpened);
        w.openTaskFolder(torchMatmul);
        QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 30000);
        TaskPanel *panel = w.taskPanel();
        QTRY_VERIFY(panel->model()->summary().has_value());
        panel->findChild<QTabWidget *>(u"taskPages"_s)->setCurrentWidget(panel->view());
        w.dockOf(panel)->show();
        raise(w, panel);
        w.resizeDocks({w.dockOf(panel)}, {760}, Qt::Horizontal);
        QVERIFY(panel->view()->toPlainText().contains(u"(M, K) = (4096, 4096)"_s));
        shot(&w, u"torch-task-opened"_s);
    }
};

QTEST_MAIN(TestDocShots)
#include "tst_docshots.moc"
