// The kernel editor in use: read-only bars with Fork to Edit, Ctrl+Enter, variant ids, themes, screenshots,
// tabs and the empty state, undo/redo, find and replace.
#include "editortestdata.h"
#include "views/editor/cudalexer.h"
#include "views/editor/editorsetup.h"
#include "views/editor/findbar.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/kerneltab.h"
#include "views/editor/readonlybar.h"

#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QVBoxLayout>

using namespace kforge;
using namespace kforge::editortest;

class TestKernelEditorTabs : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale::c()); // sizes are formatted by the locale
    }

    void readOnlyBarAndFork()
    {
        KernelEditor editor;
        editor.resize(800, 600);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.addSource(QStringLiteral("reference"), kernel, QStringLiteral("/t/reference.cu"), true);
        editor.addSource(QStringLiteral("v1"), kernel, {}, true);
        editor.addSource(QStringLiteral("fork of v1"), kernel);
        editor.setReference(0);
        QCOMPARE(editor.referenceIndex(), 0);
        QSignalSpy fork(&editor, &KernelEditor::forkRequested);

        ReadOnlyBar *refBar = editor.tab(0)->readOnlyBar();
        ReadOnlyBar *variantBar = editor.tab(1)->readOnlyBar();
        ReadOnlyBar *editableBar = editor.tab(2)->readOnlyBar();
        QVERIFY(refBar->isVisibleTo(editor.tab(0)));
        QVERIFY(variantBar->isVisibleTo(editor.tab(1)));
        QVERIFY(!editableBar->isVisibleTo(editor.tab(2)));
        QCOMPARE(refBar->text(), QStringLiteral("The reference defines what is correct and is read-only."));
        QCOMPARE(variantBar->text(), QStringLiteral("This variant has been evaluated and is read-only."));

        editor.setCurrentIndex(1);
        QVERIFY(variantBar->isVisible());
        QVERIFY(variantBar->forkButton()->isVisible());
        QTest::mouseClick(variantBar->forkButton(), Qt::LeftButton);
        QCOMPARE(fork.size(), 1);
        QCOMPARE(fork.at(0).at(0).toInt(), 1);
        // The reference can be forked too: a fork of it is a manual variant.
        editor.setCurrentIndex(0);
        QTest::mouseClick(refBar->forkButton(), Qt::LeftButton);
        QCOMPARE(fork.size(), 2);
        QCOMPARE(fork.at(1).at(0).toInt(), 0);
        // The menu action forks the current tab, and only a read-only one.
        QVERIFY(editor.forkAction()->isEnabled());
        editor.forkAction()->trigger();
        QCOMPARE(fork.last().at(0).toInt(), 0);
        editor.setCurrentIndex(2);
        QVERIFY(!editor.forkAction()->isEnabled());
        editor.forkAction()->trigger();
        QCOMPARE(fork.size(), 3);
        // An edited tab that was just evaluated becomes read-only.
        editor.setReadOnly(2, true);
        QVERIFY(editor.isReadOnly(2));
        QVERIFY(editableBar->isVisible());
        QVERIFY(editor.forkAction()->isEnabled());
        editor.setReadOnly(2, false);
        QVERIFY(!editableBar->isVisible());
        // A read-only text takes markers and annotations like any other.
        editor.setDiagnostics(1, {diag(Warning, {}, 3, 0, QStringLiteral("read-only is no excuse"))});
        QCOMPARE(editor.editor(1)->markersAtLine(2), bit(EditorSetup::warningMarker));
        QCOMPARE(editor.editor(1)->annotation(2), QStringLiteral("warning: read-only is no excuse"));
        QCOMPARE(editor.editor(1)->text(), kernel);
        // Only one reference.
        editor.setReference(1);
        QCOMPARE(editor.referenceIndex(), 1);
        QCOMPARE(refBar->text(), QStringLiteral("This variant has been evaluated and is read-only."));
    }

    void evaluateShortcut()
    {
        KernelEditor editor;
        editor.resize(800, 600);
        editor.show();
        QApplication::setActiveWindow(&editor);
        QVERIFY(QTest::qWaitForWindowActive(&editor));
        editor.addSource(QStringLiteral("reference"), kernel, {}, true);
        editor.setReference(0);
        editor.setVariantId(0, 1); // in a session the reference is a variant too
        editor.addSource(QStringLiteral("v1"), kernel, {}, true);
        editor.setVariantId(1, 7);
        editor.addSource(QStringLiteral("other"), kernel, {}, true); // read-only, neither variant nor reference
        editor.addSource(QStringLiteral("draft"), kernel);
        QSignalSpy evaluate(&editor, &KernelEditor::evaluateRequested);
        QAction *action = editor.evaluateAction();
        QVERIFY(action->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Return)));
        QVERIFY(action->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Enter)));

        editor.setCurrentIndex(3);
        QsciScintilla *draft = editor.editor(3);
        draft->setFocus();
        QVERIFY(action->isEnabled());
        QTest::keyClick(draft, Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(evaluate.size(), 1);
        QCOMPARE(evaluate.at(0).at(0).toInt(), 3);
        QTest::keyClick(draft, Qt::Key_Enter, Qt::ControlModifier | Qt::KeypadModifier);
        QCOMPARE(evaluate.size(), 2);
        QCOMPARE(draft->text(), kernel); // no line break typed
        QVERIFY(!draft->isModified());
        QTest::keyClick(draft, Qt::Key_Return); // plain Return still types
        QCOMPARE(evaluate.size(), 2);
        QVERIFY(draft->isModified());

        // An evaluated variant: evaluating again re-measures it.
        editor.setCurrentIndex(1);
        editor.editor(1)->setFocus();
        QVERIFY(action->isEnabled());
        QTest::keyClick(editor.editor(1), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(evaluate.size(), 3);
        QCOMPARE(evaluate.at(2).at(0).toInt(), 1);

        // The session's reference is measured (issue 37: Ctrl+Enter on it did nothing).
        editor.setCurrentIndex(0);
        editor.editor(0)->setFocus();
        QVERIFY(action->isEnabled());
        QTest::keyClick(editor.editor(0), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(evaluate.size(), 4);
        QCOMPARE(evaluate.at(3).at(0).toInt(), 0);

        // A read-only text that is no variant is not evaluated.
        editor.setCurrentIndex(2);
        editor.editor(2)->setFocus();
        QVERIFY(!action->isEnabled());
        QTest::keyClick(editor.editor(2), Qt::Key_Return, Qt::ControlModifier);
        editor.evaluateCurrent();
        QCOMPARE(evaluate.size(), 4);
        editor.setVariantId(2, 9);
        QVERIFY(action->isEnabled());
    }

    void variantIds()
    {
        KernelEditor editor;
        editor.addSource(QStringLiteral("reference"), kernel, {}, true);
        editor.addSource(QStringLiteral("v1"), QStringLiteral("int v1;"), {}, true);
        editor.addSource(QStringLiteral("v2"), QStringLiteral("int v2;"));
        QCOMPARE(editor.variantId(1), 0);
        QCOMPARE(editor.indexOfVariant(0), -1);
        editor.setVariantId(1, 41);
        editor.setVariantId(2, 42);
        QCOMPARE(editor.variantId(1), 41);
        QCOMPARE(editor.indexOfVariant(42), 2);
        QCOMPARE(editor.indexOfVariant(43), -1);
        QCOMPARE(editor.variantId(9), 0);
        QCOMPARE(editor.source(2), QStringLiteral("int v2;"));
        QVERIFY(editor.source(9).isEmpty());
        editor.setTitle(2, QStringLiteral("v2 (tiled)"));
        QCOMPARE(editor.title(2), QStringLiteral("v2 (tiled)"));
        // Tabs can be dragged: ids travel with them.
        auto *tabs = editor.findChild<QTabWidget *>();
        QVERIFY(tabs);
        tabs->tabBar()->moveTab(2, 0);
        QCOMPARE(editor.indexOfVariant(42), 0);
        QCOMPARE(editor.source(0), QStringLiteral("int v2;"));
        QCOMPARE(editor.indexOfVariant(41), 2);
        editor.clear();
        QCOMPARE(editor.indexOfVariant(42), -1);
    }

    void themeKeepsDiagnostics()
    {
        KernelEditor editor;
        editor.addSource(QStringLiteral("v"), kernel);
        editor.setDiagnostics(0, sampleDiagnostics());
        QsciScintilla *e = editor.editor(0);
        const auto back = [e](int style) {
            const long bgr = e->SendScintilla(QsciScintilla::SCI_STYLEGETBACK, static_cast<unsigned long>(style));
            return QColor(int(bgr & 0xff), int((bgr >> 8) & 0xff), int((bgr >> 16) & 0xff));
        };
        QVERIFY(back(EditorSetup::errorAnnotationStyle).lightness() > 128);
        editor.setDarkTheme(true);
        QVERIFY(back(EditorSetup::errorAnnotationStyle).lightness() < 128);
        QVERIFY(back(EditorSetup::warningAnnotationStyle).lightness() < 128);
        QCOMPARE(e->markersAtLine(6), bit(EditorSetup::errorMarker));
        QVERIFY(e->annotation(6).startsWith(QStringLiteral("error #20:")));
        QVERIFY(e->annotation(5).startsWith(QStringLiteral("warning #550-D:")));
        // Severities stay apart in both schemes.
        for (bool dark : {false, true}) {
            QVERIFY(EditorSetup::severityColor(Error, dark) != EditorSetup::severityColor(Warning, dark));
            QVERIFY(EditorSetup::severityColor(Warning, dark) != EditorSetup::severityColor(Note, dark));
        }
    }

    void screenshot_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    void screenshot()
    {
        QFETCH(bool, dark);
        KernelEditor editor;
        editor.setDarkTheme(dark);
        editor.resize(980, 560);
        editor.addSource(QStringLiteral("reference"), kernel, {}, true);
        editor.setReference(0);
        editor.addSource(QStringLiteral("v3 (tiled)"), kernel);
        editor.setCompileFileName(1, QStringLiteral("candidate.cu"));
        editor.setCurrentIndex(1);
        editor.setDiagnostics(1, sampleDiagnostics());
        editor.setResources(1, sampleResources());
        editor.setStatus(1, QStringLiteral("compile failed: 2 errors"));
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.nextDiagnostic();
        QDir().mkpath(QStringLiteral(KFORGE_TEST_ARTIFACT_DIR));
        const QString shot = QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/kerneleditor-%1.png")
                                 .arg(dark ? QStringLiteral("dark") : QStringLiteral("light"));
        QVERIFY(editor.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));

        // The read-only reference with its bar.
        editor.setCurrentIndex(0);
        const QString readOnlyShot = QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/kerneleditor-readonly-%1.png")
                                         .arg(dark ? QStringLiteral("dark") : QStringLiteral("light"));
        QVERIFY(editor.grab().save(readOnlyShot));
    }

    void tabsAndEmptyState()
    {
        KernelEditor editor;
        editor.resize(800, 600);
        editor.show();
        QCOMPARE(editor.count(), 0);
        QVERIFY(!editor.currentEditor());
        editor.addSource(QStringLiteral("reference"), kernel, QStringLiteral("/t/reference.cu"), true);
        editor.addSource(QStringLiteral("naive"), QStringLiteral("int x;"), QStringLiteral("/t/variants/naive.cu"));
        QCOMPARE(editor.count(), 2);
        QCOMPARE(editor.title(1), QStringLiteral("naive"));
        QCOMPARE(editor.filePath(1), QStringLiteral("/t/variants/naive.cu"));
        QVERIFY(editor.editor(0)->isReadOnly());
        QVERIFY(!editor.editor(1)->isReadOnly());
        QVERIFY(!editor.editor(1)->isModified());
        editor.clear();
        QCOMPARE(editor.count(), 0);
    }

    void tabsClose()
    {
        KernelEditor editor;
        editor.resize(900, 500);
        editor.show();
        QApplication::setActiveWindow(&editor);
        QVERIFY(QTest::qWaitForWindowActive(&editor));
        editor.addSource(QStringLiteral("reference"), kernel, {}, true);
        editor.setReference(0);
        editor.setVariantId(0, 1);
        editor.addSource(QStringLiteral("#6 R1.1"), kernel, {}, true);
        editor.setVariantId(1, 6);
        editor.addSource(QStringLiteral("fork of good"), kernel);
        editor.addSource(QStringLiteral("#9 naive"), kernel);
        editor.setVariantId(3, 9);
        auto *tabs = editor.findChild<QTabWidget *>();
        QVERIFY(tabs->tabsClosable());
        QSignalSpy closing(&editor, &KernelEditor::tabClosing);

        // A session variant closes at once (the Variants panel opens it again), by its × or by Ctrl+W.
        QVERIFY(tabs->tabBar()->tabButton(1, QTabBar::RightSide));
        Q_EMIT tabs->tabCloseRequested(1);
        QCOMPARE(editor.count(), 3);
        QCOMPARE(closing.size(), 1);
        QCOMPARE(closing.at(0).at(1).toLongLong(), 6);
        QCOMPARE(editor.indexOfVariant(6), -1);
        QCOMPARE(editor.indexOfVariant(9), 2);
        editor.setCurrentIndex(2);
        editor.editor(2)->setFocus();
        QVERIFY(editor.closeTabAction()->isEnabled());
        QVERIFY(editor.closeTabAction()->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_W)));
        QTest::keyClick(editor.editor(2), Qt::Key_W, Qt::ControlModifier);
        QCOMPARE(editor.count(), 2);
        QCOMPARE(editor.indexOfVariant(9), -1);

        // An unedited fork closes at once; an edited one asks first, without blocking, and Cancel keeps it.
        QsciScintilla *fork = editor.editor(1);
        fork->append(QStringLiteral("// my edit\n"));
        QVERIFY(fork->isModified());
        editor.requestCloseTab(1);
        QCOMPARE(editor.count(), 2);
        auto *question = editor.findChild<QMessageBox *>(QStringLiteral("kforgeCloseTabQuestion"));
        QVERIFY(question);
        QTRY_VERIFY(question->isVisible());
        QCOMPARE(question->text(),
                 QStringLiteral("“fork of good” has edits that were never evaluated, so they are in no session. Close it and "
                                "discard them?"));
        question->button(QMessageBox::Cancel)->click();
        QCOMPARE(editor.count(), 2);
        QCOMPARE(editor.source(1), fork->text());
        editor.requestCloseTab(1);
        question = nullptr;
        QTRY_VERIFY((question = editor.findChild<QMessageBox *>(QStringLiteral("kforgeCloseTabQuestion")))
                    && question->isVisible());
        question->button(QMessageBox::Discard)->click();
        QCOMPARE(editor.count(), 1);
        QCOMPARE(closing.size(), 3);
        // The reference closes too; the empty state comes back after the last tab.
        Q_EMIT tabs->tabCloseRequested(0);
        QCOMPARE(editor.count(), 0);
        QVERIFY(!editor.closeTabAction()->isEnabled());
        QVERIFY(!editor.evaluateAction()->isEnabled());
    }

    void evaluateShortcutWorksAnywhereInTheWindow()
    {
        // Focus in another panel of the same window (e.g. the Variants table after a double-click): Ctrl+Enter
        // does what the toolbar button does.
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *elsewhere = new QLineEdit(&window);
        auto *editor = new KernelEditor(&window);
        layout->addWidget(elsewhere);
        layout->addWidget(editor);
        window.resize(800, 600);
        window.show();
        QApplication::setActiveWindow(&window);
        QVERIFY(QTest::qWaitForWindowActive(&window));
        editor->addSource(QStringLiteral("naive"), kernel, {}, false);
        editor->setVariantId(0, 2); // a bundled variant that was never evaluated: editable, and evaluated as it is
        QSignalSpy evaluate(editor, &KernelEditor::evaluateRequested);
        elsewhere->setFocus();
        QTRY_VERIFY(elsewhere->hasFocus());
        QTest::keyClick(elsewhere, Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(evaluate.size(), 1);
        editor->evaluateAction()->trigger(); // the toolbar button
        QCOMPARE(evaluate.size(), 2);
        editor->editor(0)->setFocus();
        QTest::keyClick(editor->editor(0), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(evaluate.size(), 3);
        QCOMPARE(editor->source(0), kernel);
    }

    void undoRedo()
    {
        KernelEditor editor;
        QSignalSpy undo(&editor, &KernelEditor::undoAvailable);
        editor.addSource(QStringLiteral("v"), QStringLiteral("int a;"));
        QsciScintilla *e = editor.currentEditor();
        QVERIFY(!e->isUndoAvailable()); // loading is not an edit
        e->insertAt(QStringLiteral("// x\n"), 0, 0);
        QVERIFY(e->isUndoAvailable());
        QVERIFY(!undo.isEmpty());
        QCOMPARE(undo.last().at(0).toBool(), true);
        editor.undo();
        QCOMPARE(e->text(), QStringLiteral("int a;"));
        editor.redo();
        QCOMPARE(e->text(), QStringLiteral("// x\nint a;"));
    }

    void findAndReplace()
    {
        KernelEditor editor;
        editor.addSource(QStringLiteral("v"), QStringLiteral("float a; float b; Float c;"));
        QsciScintilla *e = editor.currentEditor();
        FindBar *bar = editor.findBar();
        bar->setFindText(QStringLiteral("float"));
        bar->setOptions(true, true, false);
        QVERIFY(bar->findNext());
        QCOMPARE(e->selectedText(), QStringLiteral("float"));
        int line = 0, from = 0, lineTo = 0, to = 0;
        e->getSelection(&line, &from, &lineTo, &to);
        QCOMPARE(from, 0);
        QVERIFY(bar->findNext());
        e->getSelection(&line, &from, &lineTo, &to);
        QCOMPARE(from, 9);
        QVERIFY(bar->findPrevious());
        e->getSelection(&line, &from, &lineTo, &to);
        QCOMPARE(from, 0);

        bar->setReplaceText(QStringLiteral("double"));
        QVERIFY(bar->replaceOne());
        QCOMPARE(e->text(), QStringLiteral("double a; float b; Float c;"));
        QCOMPARE(bar->replaceAll(), 1);
        QCOMPARE(e->text(), QStringLiteral("double a; double b; Float c;"));

        bar->setOptions(false, false, false);
        bar->setFindText(QStringLiteral("DOUBLE"));
        bar->setReplaceText(QStringLiteral("half"));
        QCOMPARE(bar->replaceAll(), 2);
        QCOMPARE(e->text(), QStringLiteral("half a; half b; Float c;"));
        e->undo(); // replace all is one step
        QCOMPARE(e->text(), QStringLiteral("double a; double b; Float c;"));

        bar->setOptions(true, false, true);
        bar->setFindText(QStringLiteral("([a-c]);"));
        bar->setReplaceText(QStringLiteral("\\1_;"));
        QCOMPARE(bar->replaceAll(), 3);
        QCOMPARE(e->text(), QStringLiteral("double a_; double b_; Float c_;"));

        bar->setFindText(QStringLiteral("nothing here"));
        QVERIFY(!bar->findNext());
        QCOMPARE(bar->replaceAll(), 0);
    }

    void replaceSkipsReadOnly()
    {
        KernelEditor editor;
        editor.addSource(QStringLiteral("reference"), QStringLiteral("float a;"), {}, true);
        FindBar *bar = editor.findBar();
        bar->setFindText(QStringLiteral("float"));
        bar->setReplaceText(QStringLiteral("double"));
        QCOMPARE(bar->replaceAll(), 0);
        QCOMPARE(editor.currentEditor()->text(), QStringLiteral("float a;"));
    }

    void themeSwitch()
    {
        KernelEditor editor;
        editor.addSource(QStringLiteral("v"), kernel);
        const QColor light = editor.currentEditor()->lexer()->paper(QsciLexerCPP::Default);
        editor.setDarkTheme(true);
        const QColor dark = editor.currentEditor()->lexer()->paper(QsciLexerCPP::Default);
        QVERIFY(light.lightness() > 128);
        QVERIFY(dark.lightness() < 128);
        // A tab opened after the switch gets the dark scheme too.
        editor.addSource(QStringLiteral("w"), kernel);
        QCOMPARE(editor.editor(1)->lexer()->paper(QsciLexerCPP::Default), dark);
        QVERIFY(EditorSetup::isDark(Theme::Dark));
        QVERIFY(!EditorSetup::isDark(Theme::Light));
    }
};

QTEST_MAIN(TestKernelEditorTabs)
#include "tst_kerneleditortabs.moc"
