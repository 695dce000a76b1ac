// The editor's lexer follows the file: Python (QsciLexerPython) for a .py source (a torch task's reference.py, a
// ModelNew candidate), the CUDA lexer for .cu and anything else; the compile name a tab gets switches it, and
// the Python keywords are styled as keywords.
#include "views/editor/cudalexer.h"
#include "views/editor/editorsetup.h"
#include "views/editor/kerneleditor.h"

#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>

#include <QFontDatabase>
#include <QFontInfo>
#include <QTest>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

int styleAt(QsciScintilla *e, const QString &word)
{
    e->SendScintilla(QsciScintilla::SCI_COLOURISE, 0L, -1L);
    const qsizetype pos = e->text().toUtf8().indexOf(word.toUtf8());
    return pos < 0 ? -1 : int(e->SendScintilla(QsciScintilla::SCI_GETSTYLEAT, static_cast<unsigned long>(pos)));
}

const QString kModule = u"import torch\n\nclass ModelNew(torch.nn.Module):\n    def forward(self, a):\n        return a * 2\n"_s;
const QString kKernel = u"#include <kforge/kernel.h>\n__global__ void k(float *x) { x[0] = 1; }\n"_s;

} // namespace

class TestEditorLanguage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void lexerFollowsTheFile_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("python");
        QTest::newRow("reference.py") << u"/tasks/t/reference.py"_s << true;
        QTest::newRow("candidate.PY") << u"candidate.PY"_s << true;
        QTest::newRow("reference.cu") << u"/tasks/t/reference.cu"_s << false;
        QTest::newRow("session file") << u"/tmp/s.kforge"_s << false;
        QTest::newRow("no file") << QString() << false;
    }
    void lexerFollowsTheFile()
    {
        QFETCH(QString, file);
        QFETCH(bool, python);
        KernelEditor editor;
        const int i = editor.addSource(u"tab"_s, python ? kModule : kKernel, file);
        QsciScintilla *e = editor.editor(i);
        QCOMPARE(qobject_cast<QsciLexerPython *>(e->lexer()) != nullptr, python);
        QCOMPARE(qobject_cast<CudaLexer *>(e->lexer()) != nullptr, !python);
        QCOMPARE(EditorSetup::isPythonFile(file), python);
        if (python) {
            QCOMPARE(styleAt(e, u"class"_s), int(QsciLexerPython::Keyword));
            QCOMPARE(styleAt(e, u"ModelNew"_s), int(QsciLexerPython::ClassName));
        } else {
            QCOMPARE(styleAt(e, u"__global__"_s), CudaLexer::cudaKeywordStyle);
        }
    }

    void compileNameSwitchesTheLexer()
    {
        KernelEditor editor;
        // A session tab is added under the session file's path; its compile name says what the source is.
        const int i = editor.addSource(u"reference"_s, kModule, u"/tmp/s.kforge"_s, true);
        QVERIFY(qobject_cast<CudaLexer *>(editor.editor(i)->lexer()));
        editor.setCompileFileName(i, u"reference.py"_s);
        QVERIFY(qobject_cast<QsciLexerPython *>(editor.editor(i)->lexer()));
        QCOMPARE(styleAt(editor.editor(i), u"def"_s), int(QsciLexerPython::Keyword));
        editor.setCompileFileName(i, u"candidate.cu"_s);
        QVERIFY(qobject_cast<CudaLexer *>(editor.editor(i)->lexer()));
        // The theme switch re-colours whichever lexer is there.
        editor.setCompileFileName(i, u"candidate.py"_s);
        editor.setDarkTheme(true);
        QVERIFY(qobject_cast<QsciLexerPython *>(editor.editor(i)->lexer()));
        QVERIFY(editor.editor(i)->lexer()->paper(QsciLexerPython::Default).lightness() < 128);
    }

    // The editor draws in the font it chose, not whichever monospace font fontconfig prefers on this machine
    // (scripts/setup.sh and the package bring fonts-dejavu-core): every style of both lexers, light and dark.
    void fontIsTheSameOnEveryMachine()
    {
        QVERIFY2(QFontDatabase::hasFamily(EditorSetup::fontFamily()),
                 "DejaVu Sans Mono is not installed (scripts/setup.sh installs fonts-dejavu-core)");
        const QFont font = EditorSetup::font();
        QCOMPARE(QFontInfo(font).family(), EditorSetup::fontFamily());
        QVERIFY(QFontInfo(font).fixedPitch());
        QVERIFY(font.pointSizeF() >= 10);
        KernelEditor editor;
        const int cu = editor.addSource(u"kernel"_s, kKernel, u"k.cu"_s);
        const int py = editor.addSource(u"module"_s, kModule, u"m.py"_s);
        for (bool dark : {false, true}) {
            editor.setDarkTheme(dark);
            for (int i : {cu, py}) {
                QsciLexer *lexer = editor.editor(i)->lexer();
                for (int style = 0; style < 128; ++style) {
                    if (lexer->description(style).isEmpty())
                        continue;
                    QVERIFY2(lexer->font(style).family() == EditorSetup::fontFamily(),
                             qPrintable(u"%1 style %2: %3"_s.arg(QLatin1String(lexer->language())).arg(style).arg(lexer->font(style).family())));
                }
            }
        }
    }
};

QTEST_MAIN(TestEditorLanguage)
#include "tst_editorlanguage.moc"
