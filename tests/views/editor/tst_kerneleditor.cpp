// The kernel editor: CUDA words get the CUDA styles after lexing, tabs, find/replace, undo, themes.
#include "views/editor/cudalexer.h"
#include "views/editor/editorsetup.h"
#include "views/editor/findbar.h"
#include "views/editor/kerneleditor.h"

#include <Qsci/qsciscintilla.h>

#include <QApplication>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace kforge;

namespace {
const QString kernel = QStringLiteral(
    "#include \"kforge/kernel.h\"\n"
    "// scale rows\n"
    "__global__ void __launch_bounds__(256) scale(const float *__restrict__ a, float4 *c, int n)\n"
    "{\n"
    "    __shared__ float tile[256];\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) atomicAdd(&tile[0], __shfl_down_sync(0xffffffff, a[i], 1));\n"
    "    __syncthreads();\n"
    "}\n"
    "KF_ENTRY(in, nin, out, nout, params, stream)\n"
    "{\n"
    "    dim3 grid(1);\n"
    "    half h;\n"
    "    return cudaSuccess;\n"
    "}\n");

// The style Scintilla gave the first character of the first occurrence of `word`.
int styleOf(QsciScintilla *editor, const QString &word)
{
    const QByteArray utf8 = editor->text().toUtf8();
    const qsizetype pos = utf8.indexOf(word.toUtf8());
    if (pos < 0)
        return -1;
    return int(editor->SendScintilla(QsciScintilla::SCI_GETSTYLEAT, static_cast<unsigned long>(pos)));
}

void lexAll(QsciScintilla *editor)
{
    editor->SendScintilla(QsciScintilla::SCI_COLOURISE, 0L, -1L);
}
} // namespace

class TestKernelEditor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void highlighting_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<int>("style");
        QTest::newRow("__global__") << QStringLiteral("__global__") << CudaLexer::cudaKeywordStyle;
        QTest::newRow("__launch_bounds__") << QStringLiteral("__launch_bounds__") << CudaLexer::cudaKeywordStyle;
        QTest::newRow("__restrict__") << QStringLiteral("__restrict__") << CudaLexer::cudaKeywordStyle;
        QTest::newRow("__shared__") << QStringLiteral("__shared__") << CudaLexer::cudaKeywordStyle;
        QTest::newRow("threadIdx") << QStringLiteral("threadIdx") << CudaLexer::cudaKeywordStyle;
        QTest::newRow("blockIdx") << QStringLiteral("blockIdx") << CudaLexer::cudaKeywordStyle;
        QTest::newRow("blockDim") << QStringLiteral("blockDim") << CudaLexer::cudaKeywordStyle;
        QTest::newRow("atomicAdd") << QStringLiteral("atomicAdd") << CudaLexer::cudaKeywordStyle;
        QTest::newRow("__shfl_down_sync") << QStringLiteral("__shfl_down_sync") << CudaLexer::cudaKeywordStyle;
        QTest::newRow("__syncthreads") << QStringLiteral("__syncthreads") << CudaLexer::cudaKeywordStyle;
        QTest::newRow("KF_ENTRY") << QStringLiteral("KF_ENTRY") << CudaLexer::cudaKeywordStyle;
        QTest::newRow("cudaSuccess") << QStringLiteral("cudaSuccess") << CudaLexer::cudaKeywordStyle;
        QTest::newRow("float4") << QStringLiteral("float4") << CudaLexer::cudaTypeStyle;
        QTest::newRow("dim3") << QStringLiteral("dim3") << CudaLexer::cudaTypeStyle;
        QTest::newRow("half") << QStringLiteral("half") << CudaLexer::cudaTypeStyle;
        QTest::newRow("C++ keyword") << QStringLiteral("void") << int(QsciLexerCPP::Keyword);
        QTest::newRow("identifier") << QStringLiteral("tile") << int(QsciLexerCPP::Identifier);
        QTest::newRow("comment") << QStringLiteral("// scale") << int(QsciLexerCPP::CommentLine);
        QTest::newRow("preprocessor") << QStringLiteral("#include") << int(QsciLexerCPP::PreProcessor);
        QTest::newRow("number") << QStringLiteral("256") << int(QsciLexerCPP::Number);
    }

    void highlighting()
    {
        QFETCH(QString, word);
        QFETCH(int, style);
        KernelEditor editor;
        editor.addSource(QStringLiteral("reference.cu"), kernel);
        QsciScintilla *e = editor.editor(0);
        QVERIFY(qobject_cast<CudaLexer *>(e->lexer()));
        lexAll(e);
        QCOMPARE(styleOf(e, word), style);
    }

    void cudaStylesAreDistinct_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    void cudaStylesAreDistinct()
    {
        // The CUDA words must look different from plain identifiers and from C++ keywords, in both schemes.
        QFETCH(bool, dark);
        QsciScintilla e;
        EditorSetup::configure(&e, dark);
        QsciLexer *lexer = e.lexer();
        const QColor cuda = lexer->color(CudaLexer::cudaKeywordStyle);
        QVERIFY(cuda != lexer->color(QsciLexerCPP::Identifier));
        QVERIFY(cuda != lexer->color(QsciLexerCPP::Keyword));
        QVERIFY(lexer->color(CudaLexer::cudaTypeStyle) != lexer->color(QsciLexerCPP::Identifier));
        QCOMPARE(lexer->paper(QsciLexerCPP::Default).lightness() < 128, dark);
        QCOMPARE(lexer->paper(CudaLexer::cudaKeywordStyle), lexer->paper(QsciLexerCPP::Default));
    }

    void setupInOnePlace()
    {
        QsciScintilla e;
        EditorSetup::configure(&e, false);
        QVERIFY(e.marginLineNumbers(EditorSetup::lineNumberMargin));
        QVERIFY(e.marginWidth(EditorSetup::lineNumberMargin) > 0);
        QCOMPARE(e.folding(), QsciScintilla::BoxedTreeFoldStyle);
        QCOMPARE(e.braceMatching(), QsciScintilla::SloppyBraceMatch);
        QVERIFY(!e.indentationsUseTabs());
        QCOMPARE(e.indentationWidth(), 4);
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

QTEST_MAIN(TestKernelEditor)
#include "tst_kerneleditor.moc"
