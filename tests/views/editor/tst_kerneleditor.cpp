// The kernel editor: CUDA words get the CUDA styles after lexing, tabs, find/replace, undo, themes;
// diagnostics as markers, squiggles and annotations, next/previous problem, the info strip with status and
// per-kernel resources, read-only bars with Fork to Edit, Ctrl+Enter, variant ids.
#include "views/editor/cudalexer.h"
#include "views/editor/diagnosticformat.h"
#include "views/editor/editorsetup.h"
#include "views/editor/findbar.h"
#include "views/editor/kernelinfostrip.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/kerneltab.h"
#include "views/editor/readonlybar.h"

#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLabel>
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

Diagnostic diag(Diagnostic::Severity severity, const QString &file, int line, int column, const QString &message,
                const QString &code = {}, const QString &tool = QStringLiteral("nvcc"))
{
    Diagnostic d;
    d.severity = severity;
    d.file = file;
    d.line = line;
    d.column = column;
    d.message = message;
    d.code = code;
    d.tool = tool;
    return d;
}

constexpr auto Error = Diagnostic::Severity::Error;
constexpr auto Warning = Diagnostic::Severity::Warning;
constexpr auto Note = Diagnostic::Severity::Note;
constexpr unsigned bit(int marker)
{
    return 1u << marker;
}

// The 0-based line the cursor of `e` is on.
int cursorLine(QsciScintilla *e)
{
    int line = 0, index = 0;
    e->getCursorPosition(&line, &index);
    return line;
}

int indicatorAt(QsciScintilla *e, int indicator, const QString &word)
{
    const qsizetype pos = e->text().toUtf8().indexOf(word.toUtf8());
    return int(e->SendScintilla(QsciScintilla::SCI_INDICATORVALUEAT, static_cast<unsigned long>(indicator), long(pos)));
}

QList<KernelResources> sampleResources()
{
    KernelResources gemm;
    gemm.mangledName = QStringLiteral("_Z4gemmILi128ELi64EEvPKfPfi");
    gemm.name = QStringLiteral("void gemm<128, 64>(float const*, float*, int)");
    gemm.arch = QStringLiteral("sm_90");
    gemm.registers = 128;
    gemm.sharedBytes = 16384;
    gemm.spillStoreBytes = 24;
    gemm.spillLoadBytes = 16;
    gemm.stackBytes = 40;
    KernelResources scale;
    scale.mangledName = QStringLiteral("_Z5scalePKfP6float4i");
    scale.name = QStringLiteral("scale(float const*, float4*, int)");
    scale.arch = QStringLiteral("sm_90");
    scale.registers = 32;
    scale.sharedBytes = 1024;
    return {gemm, scale};
}

QList<Diagnostic> sampleDiagnostics()
{
    return {diag(Error, QStringLiteral("candidate.cu"), 7, 27, QStringLiteral("identifier \"tile\" is undefined"),
                 QStringLiteral("20")),
            diag(Warning, QStringLiteral("/tmp/kforge-work/candidate.cu"), 6, 9,
                 QStringLiteral("variable \"i\" was set but never used\n          detected during instantiation of "
                                "\"scale<256>\""),
                 QStringLiteral("550-D")),
            diag(Warning, QStringLiteral("kforge/kernel.h"), 12, 0, QStringLiteral("unused parameter"), {},
                 QStringLiteral("gcc")),
            diag(Error, {}, 0, 0, QStringLiteral("Entry function 'scale' uses too much shared data (0x10000 bytes)"),
                 {}, QStringLiteral("ptxas"))};
}
} // namespace

class TestKernelEditor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale::c()); // sizes are formatted by the locale
    }

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
        // Diagnostics have their own symbol margin, always there so the text never shifts.
        QCOMPARE(e.marginType(EditorSetup::diagnosticMargin), QsciScintilla::SymbolMarginColor);
        QCOMPARE(unsigned(e.marginMarkerMask(EditorSetup::diagnosticMargin)), EditorSetup::diagnosticMarkerMask);
        QCOMPARE(e.marginMarkerMask(EditorSetup::lineNumberMargin), 0);
        QVERIFY(e.marginWidth(EditorSetup::diagnosticMargin) >= 12);
        QCOMPARE(e.annotationDisplay(), QsciScintilla::AnnotationIndented);
        // Error paints over warning over note on a shared line.
        QVERIFY(EditorSetup::errorMarker > EditorSetup::warningMarker);
        QVERIFY(EditorSetup::warningMarker > EditorSetup::noteMarker);
    }

    void diagnosticPlacement_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("compileFileName");
        QTest::addColumn<bool>("marked");
        const QString candidate = QStringLiteral("candidate.cu");
        QTest::newRow("the compiled name") << candidate << 3 << candidate << true;
        QTest::newRow("with the work folder") << QStringLiteral("/tmp/kforge-1/candidate.cu") << 3 << candidate << true;
        QTest::newRow("no file but a line") << QString() << 3 << candidate << true;
        QTest::newRow("another source") << QStringLiteral("other.cu") << 3 << candidate << false;
        QTest::newRow("sanitized like the compiler") << QStringLiteral("my_variant__2_.cu") << 3
                                                     << QStringLiteral("my variant (2)") << true;
        QTest::newRow("header") << QStringLiteral("kforge/kernel.h") << 3 << candidate << false;
        QTest::newRow("tab without a name: .cu") << candidate << 3 << QString() << true;
        QTest::newRow("tab without a name: header") << QStringLiteral("/usr/include/cuda_fp16.h") << 3 << QString()
                                                    << false;
        QTest::newRow("tab without a name: .cuh") << QStringLiteral("tile.cuh") << 3 << QString() << false;
        QTest::newRow("no line (ptxas)") << QString() << 0 << QString() << false;
        QTest::newRow("past the end") << candidate << 99 << candidate << false;
    }

    void diagnosticPlacement()
    {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, compileFileName);
        QFETCH(bool, marked);
        KernelEditor editor;
        editor.addSource(QStringLiteral("v"), kernel);
        editor.setCompileFileName(0, compileFileName);
        QCOMPARE(editor.compileFileName(0), compileFileName);
        editor.setDiagnostics(0, {diag(Error, file, line, 0, QStringLiteral("boom"))});
        QsciScintilla *e = editor.editor(0);
        KernelInfoStrip *strip = editor.tab(0)->infoStrip();
        if (marked) {
            QCOMPARE(e->markersAtLine(line - 1), bit(EditorSetup::errorMarker));
            QCOMPARE(e->annotation(line - 1), QStringLiteral("error: boom"));
            QVERIFY(strip->unmarkedText().isEmpty());
        } else {
            for (int l = 0; l < e->lines(); ++l) {
                QCOMPARE(e->markersAtLine(l), 0u);
                QVERIFY(e->annotation(l).isEmpty());
            }
            QVERIFY2(strip->unmarkedText().contains(QStringLiteral("error: boom")), qPrintable(strip->unmarkedText()));
        }
        QCOMPARE(strip->summaryText(), QStringLiteral("1 error(s)"));
        QCOMPARE(editor.diagnostics(0).size(), 1);
    }

    void diagnosticsMarkersAndAnnotations()
    {
        KernelEditor editor;
        editor.addSource(QStringLiteral("v"), kernel, QStringLiteral("/t/variants/naive.cu"));
        editor.setCompileFileName(0, QStringLiteral("candidate.cu"));
        QList<Diagnostic> list = sampleDiagnostics();
        list << diag(Note, {}, 6, 0, QStringLiteral("the value is stored in register R4"));
        list << diag(Error, QStringLiteral("candidate.cu"), 7, 16, QStringLiteral("no instance of \"atomicAdd\""));
        editor.setDiagnostics(0, list);
        QsciScintilla *e = editor.editor(0);

        // Line 6 (0-based 5): a warning and a note; line 7: two errors; nothing elsewhere.
        QCOMPARE(e->markersAtLine(5), bit(EditorSetup::warningMarker) | bit(EditorSetup::noteMarker));
        QCOMPARE(e->markersAtLine(6), bit(EditorSetup::errorMarker));
        for (int l : {0, 1, 2, 3, 4, 7, 11})
            QCOMPARE(e->markersAtLine(l), 0u);

        // The annotation holds every message of its line, each whole (continuation lines included).
        QCOMPARE(e->annotation(5), QStringLiteral("warning #550-D: variable \"i\" was set but never used\n"
                                                  "          detected during instantiation of \"scale<256>\"\n"
                                                  "note: the value is stored in register R4"));
        QCOMPARE(e->annotation(6), QStringLiteral("error #20: identifier \"tile\" is undefined\n"
                                                  "error: no instance of \"atomicAdd\""));
        // Annotation styles per severity: the first character of line 6's annotation is the warning style.
        QByteArray styles(int(e->SendScintilla(QsciScintilla::SCI_ANNOTATIONGETSTYLES, 6UL, static_cast<const char *>(nullptr))), '\0');
        e->SendScintilla(QsciScintilla::SCI_ANNOTATIONGETSTYLES, 6UL, styles.data());
        QCOMPARE(int(uchar(styles.at(0))), EditorSetup::errorAnnotationStyle);

        // Squiggles at the columns.
        QCOMPARE(indicatorAt(e, EditorSetup::errorIndicator, QStringLiteral("tile[0]")), 1);
        QCOMPARE(indicatorAt(e, EditorSetup::warningIndicator, QStringLiteral("i = blockIdx")), 1);
        QCOMPARE(indicatorAt(e, EditorSetup::errorIndicator, QStringLiteral("atomicAdd")), 1);
        QCOMPARE(indicatorAt(e, EditorSetup::errorIndicator, QStringLiteral("[0]")), 0); // the token only
        QCOMPARE(indicatorAt(e, EditorSetup::errorIndicator, QStringLiteral("__syncthreads")), 0);

        // The header's warning and ptxas's error have no place in the text: the strip lists them.
        KernelInfoStrip *strip = editor.tab(0)->infoStrip();
        QCOMPARE(strip->unmarkedText(),
                 QStringLiteral("kforge/kernel.h:12: warning: unused parameter\n"
                                "ptxas: error: Entry function 'scale' uses too much shared data (0x10000 bytes)"));
        QCOMPARE(strip->summaryText(), QStringLiteral("3 error(s), 2 warning(s)"));
        QVERIFY(!editor.tab(0)->statusIcon().isNull());
        // A click on a marker shows the line's worst message.
        Q_EMIT e->marginClicked(EditorSetup::diagnosticMargin, 5, Qt::NoModifier);
        QCOMPARE(strip->messageText(), QStringLiteral("line 6, column 9: warning #550-D: variable \"i\" was set but "
                                                      "never used\n          detected during instantiation of "
                                                      "\"scale<256>\""));
        Q_EMIT e->marginClicked(EditorSetup::lineNumberMargin, 6, Qt::NoModifier);
        QVERIFY(strip->messageText().startsWith(QStringLiteral("line 6")));

        editor.clearDiagnostics(0);
        for (int l = 0; l < e->lines(); ++l) {
            QCOMPARE(e->markersAtLine(l), 0u);
            QVERIFY(e->annotation(l).isEmpty());
        }
        QCOMPARE(indicatorAt(e, EditorSetup::errorIndicator, QStringLiteral("tile[0]")), 0);
        QVERIFY(strip->summaryText().isEmpty());
        QVERIFY(strip->unmarkedText().isEmpty());
        QVERIFY(editor.tab(0)->statusIcon().isNull());
    }

    void diagnosticsReplaceEarlierOnes()
    {
        KernelEditor editor;
        editor.addSource(QStringLiteral("v"), kernel);
        editor.setDiagnostics(0, {diag(Error, {}, 3, 0, QStringLiteral("first"))});
        editor.setDiagnostics(0, {diag(Warning, {}, 9, 0, QStringLiteral("second"))});
        QsciScintilla *e = editor.editor(0);
        QCOMPARE(e->markersAtLine(2), 0u);
        QVERIFY(e->annotation(2).isEmpty());
        QCOMPARE(e->markersAtLine(8), bit(EditorSetup::warningMarker));
        QCOMPARE(e->annotation(8), QStringLiteral("warning: second"));
    }

    void editsKeepMarkersInPlace()
    {
        KernelEditor editor;
        editor.addSource(QStringLiteral("v"), kernel);
        QsciScintilla *e = editor.editor(0);
        editor.setDiagnostics(0, {diag(Error, {}, 7, 0, QStringLiteral("bad atomic")),
                                  diag(Warning, {}, 13, 0, QStringLiteral("unused h"))});
        // Two lines typed above: marker and annotation move down with their line.
        e->insertAt(QStringLiteral("// one\n// two\n"), 0, 0);
        QCOMPARE(e->markersAtLine(6), 0u);
        QCOMPARE(e->markersAtLine(8), bit(EditorSetup::errorMarker));
        QCOMPARE(editor.tab(0)->markedLines(), (QList<int>{8, 14}));
        QTest::qWait(0);
        QCOMPARE(e->annotation(8), QStringLiteral("error: bad atomic"));
        QVERIFY(e->annotation(6).isEmpty());
        // Editing the line itself: the message no longer describes it, so its annotation goes; the marker
        // stays until the next compile. The other line keeps its annotation.
        e->insertAt(QStringLiteral("/*x*/"), 8, 4);
        QTRY_VERIFY(e->annotation(8).isEmpty());
        QCOMPARE(e->markersAtLine(8), bit(EditorSetup::errorMarker));
        QCOMPARE(e->annotation(14), QStringLiteral("warning: unused h"));
        editor.setCurrentIndex(0);
        e->setCursorPosition(0, 0);
        editor.nextDiagnostic();
        QCOMPARE(cursorLine(e), 8);
        QCOMPARE(editor.tab(0)->infoStrip()->messageText(), QStringLiteral("line 9: error: bad atomic"));
        // A deleted line takes no marker with it into the wrong place: it merges into the line above.
        e->setSelection(13, 0, 14, 0);
        e->removeSelectedText();
        QCOMPARE(e->markersAtLine(13), bit(EditorSetup::warningMarker));
        QTRY_VERIFY(e->annotation(13).isEmpty());
    }

    void nextPreviousWrap()
    {
        KernelEditor editor;
        editor.addSource(QStringLiteral("v"), kernel);
        QVERIFY(!editor.nextDiagnosticAction()->isEnabled());
        QCOMPARE(editor.nextDiagnosticAction()->shortcut(), QKeySequence(Qt::Key_F8));
        QCOMPARE(editor.previousDiagnosticAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F8));
        editor.setDiagnostics(0, {diag(Warning, {}, 9, 0, QStringLiteral("w9")),
                                  diag(Error, {}, 3, 0, QStringLiteral("e3")),
                                  diag(Note, {}, 5, 0, QStringLiteral("n5")), // shown, not visited
                                  diag(Error, {}, 6, 20, QStringLiteral("e6b")),
                                  diag(Error, {}, 6, 5, QStringLiteral("e6a")),
                                  diag(Error, QStringLiteral("kforge/kernel.h"), 2, 0, QStringLiteral("hdr"))});
        QVERIFY(editor.nextDiagnosticAction()->isEnabled());
        QsciScintilla *e = editor.currentEditor();
        KernelInfoStrip *strip = editor.tab(0)->infoStrip();
        e->setCursorPosition(0, 0);
        const QStringList forward = {QStringLiteral("e3"), QStringLiteral("e6a"), QStringLiteral("e6b"),
                                     QStringLiteral("w9"), QStringLiteral("e3"), QStringLiteral("e6a")};
        const QList<int> forwardLines = {2, 5, 5, 8, 2, 5};
        for (int i = 0; i < forward.size(); ++i) {
            editor.nextDiagnosticAction()->trigger();
            QCOMPARE(cursorLine(e), forwardLines.at(i));
            QVERIFY2(strip->messageText().endsWith(forward.at(i)), qPrintable(strip->messageText()));
        }
        int line = 0, index = 0;
        e->getCursorPosition(&line, &index);
        QCOMPARE(index, 4); // column 5, 1-based
        // Backwards from e6a: e3, then wrap to w9, e6b.
        const QStringList backward = {QStringLiteral("e3"), QStringLiteral("w9"), QStringLiteral("e6b")};
        for (const QString &expected : backward) {
            editor.previousDiagnostic();
            QVERIFY2(strip->messageText().endsWith(expected), qPrintable(strip->messageText()));
        }
        QCOMPARE(strip->messageText(), QStringLiteral("line 6, column 20: error: e6b"));
        // From a place the user put the cursor: the next problem after it.
        e->setCursorPosition(6, 0);
        editor.nextDiagnostic();
        QCOMPARE(cursorLine(e), 8);
        e->setCursorPosition(6, 0);
        editor.previousDiagnostic();
        QCOMPARE(cursorLine(e), 5);
        QVERIFY(strip->messageText().endsWith(QStringLiteral("e6b")));
        // A new compile resets the message.
        editor.setDiagnostics(0, {});
        QVERIFY(strip->messageText().isEmpty());
        QVERIFY(!editor.nextDiagnosticAction()->isEnabled());
    }

    void statusAndResources()
    {
        KernelEditor editor;
        editor.addSource(QStringLiteral("v"), kernel);
        editor.addSource(QStringLiteral("w"), kernel);
        KernelInfoStrip *strip = editor.tab(0)->infoStrip();
        QVERIFY(!strip->isVisibleTo(editor.tab(0))); // nothing to show yet
        editor.setStatus(0, QStringLiteral("correct 63.9x"));
        QCOMPARE(editor.status(0), QStringLiteral("correct 63.9x"));
        QVERIFY(editor.status(1).isEmpty());
        QVERIFY(strip->isVisibleTo(editor.tab(0)));
        editor.setResources(0, sampleResources());
        const QStringList rows = strip->resourcesText().split(u'\n');
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows.at(0), QStringLiteral("Kernel  Registers  Shared memory  Spills (stores / loads)  Stack"));
        QCOMPARE(rows.at(1), QStringLiteral("gemm<128, 64>  128  16.0 kB  ⚠ 24 bytes / 16 bytes  40 bytes"));
        QCOMPARE(rows.at(2), QStringLiteral("scale  32  1.0 kB  none  0 bytes"));
        // The spill cell is in the warning colour, its row's tool tip names the kernel in full.
        const QList<QLabel *> labels = strip->findChildren<QLabel *>();
        const auto find = [&labels](const QString &text) -> QLabel * {
            for (QLabel *l : labels)
                if (l->text() == text)
                    return l;
            return nullptr;
        };
        QLabel *spill = find(QStringLiteral("⚠ 24 bytes / 16 bytes"));
        QVERIFY(spill);
        QCOMPARE(spill->palette().color(QPalette::WindowText), EditorSetup::panelColors(false).warning);
        QVERIFY(spill->toolTip().contains(QStringLiteral("24 bytes")));
        QLabel *name = find(QStringLiteral("scale"));
        QVERIFY(name);
        QVERIFY(name->toolTip().contains(QStringLiteral("scale(float const*, float4*, int)")));
        QVERIFY(name->toolTip().contains(QStringLiteral("_Z5scalePKfP6float4i")));
        QVERIFY(name->toolTip().contains(QStringLiteral("sm_90")));
        QVERIFY(find(QStringLiteral("none"))->palette().color(QPalette::WindowText)
                != EditorSetup::panelColors(false).warning);
        // Replacing them replaces the rows.
        editor.setResources(0, {sampleResources().at(1)});
        QCOMPARE(strip->resourcesText().split(u'\n').size(), 2);
        editor.setResources(0, {});
        QVERIFY(strip->resourcesText().isEmpty());
    }

    void shortKernelNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << QStringLiteral("scale(float const*, float*, int)") << QStringLiteral("scale");
        QTest::newRow("template") << QStringLiteral("void gemm<128, 64>(float const*, float*, int)")
                                  << QStringLiteral("gemm<128, 64>");
        // One shortener everywhere (core/eval/kernelname.h, issue 18): qualifiers go, a mangled name is demangled.
        QTest::newRow("namespace") << QStringLiteral("void ns::k<(int)3>(float*)") << QStringLiteral("k<(int)3>");
        QTest::newRow("anonymous namespace") << QStringLiteral("(anonymous namespace)::colsum_vec4(float const*, float*, int)")
                                             << QStringLiteral("colsum_vec4");
        QTest::newRow("not demangled") << QStringLiteral("_Z5scalePKfPfi") << QStringLiteral("scale");
        QTest::newRow("not demanglable") << QStringLiteral("_Znot_a_name") << QStringLiteral("_Znot_a_name");
    }

    void shortKernelNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, expected);
        KernelResources k;
        k.name = name;
        k.mangledName = QStringLiteral("_Zmangled");
        QCOMPARE(DiagnosticFormat::shortKernelName(k), expected);
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

        // The reference and a read-only text that is no variant are not evaluated.
        for (int index : {0, 2}) {
            editor.setCurrentIndex(index);
            editor.editor(index)->setFocus();
            QVERIFY(!action->isEnabled());
            QTest::keyClick(editor.editor(index), Qt::Key_Return, Qt::ControlModifier);
            editor.evaluateCurrent();
            QCOMPARE(evaluate.size(), 3);
        }
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
        QTRY_VERIFY((question = editor.findChild<QMessageBox *>(QStringLiteral("kforgeCloseTabQuestion"))) && question->isVisible());
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

QTEST_MAIN(TestKernelEditor)
#include "tst_kerneleditor.moc"
