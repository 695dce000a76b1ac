// The kernel editor: CUDA words get the CUDA styles after lexing, the editor set up in one place;
// diagnostics as markers, squiggles and annotations, next/previous problem, the info strip with status and
// per-kernel resources, short kernel names.
#include "editortestdata.h"
#include "views/editor/cudalexer.h"
#include "views/editor/diagnosticformat.h"
#include "views/editor/editorsetup.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/kernelinfostrip.h"
#include "views/editor/kerneltab.h"

#include <Qsci/qsciscintilla.h>

#include <QLabel>
#include <QStandardPaths>
#include <QTest>

using namespace kforge;
using namespace kforge::editortest;

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
        QTest::newRow("sanitized like the compiler")
            << QStringLiteral("my_variant__2_.cu") << 3 << QStringLiteral("my variant (2)") << true;
        QTest::newRow("header") << QStringLiteral("kforge/kernel.h") << 3 << candidate << false;
        QTest::newRow("tab without a name: .cu") << candidate << 3 << QString() << true;
        QTest::newRow("tab without a name: header") << QStringLiteral("/usr/include/cuda_fp16.h") << 3 << QString() << false;
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
        QByteArray styles(
            int(e->SendScintilla(QsciScintilla::SCI_ANNOTATIONGETSTYLES, 6UL, static_cast<const char *>(nullptr))), '\0');
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
        editor.setDiagnostics(0,
                              {diag(Warning, {}, 9, 0, QStringLiteral("w9")), diag(Error, {}, 3, 0, QStringLiteral("e3")),
                               diag(Note, {}, 5, 0, QStringLiteral("n5")), // shown, not visited
                               diag(Error, {}, 6, 20, QStringLiteral("e6b")), diag(Error, {}, 6, 5, QStringLiteral("e6a")),
                               diag(Error, QStringLiteral("kforge/kernel.h"), 2, 0, QStringLiteral("hdr"))});
        QVERIFY(editor.nextDiagnosticAction()->isEnabled());
        QsciScintilla *e = editor.currentEditor();
        KernelInfoStrip *strip = editor.tab(0)->infoStrip();
        e->setCursorPosition(0, 0);
        const QStringList forward = {QStringLiteral("e3"), QStringLiteral("e6a"), QStringLiteral("e6b"),
                                     QStringLiteral("w9"), QStringLiteral("e3"),  QStringLiteral("e6a")};
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
        QTest::newRow("anonymous namespace")
            << QStringLiteral("(anonymous namespace)::colsum_vec4(float const*, float*, int)")
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
};

QTEST_MAIN(TestKernelEditor)
#include "tst_kerneleditor.moc"
