#include "views/editor/editorsetup.h"

#include "views/editor/cudalexer.h"

#include <Qsci/qsciscintilla.h>

#include <QApplication>
#include <QFontDatabase>
#include <QPalette>

namespace kforge {

namespace {
struct Scheme {
    QColor paper, text, comment, number, keyword, cudaKeyword, cudaType, string, preprocessor, op;
    QColor marginPaper, marginText, caretLine, selection, braceMatch, braceBad, indentGuide, inactive;
};

// Colours after Atom's One Light and One Dark: the CUDA words get their own hue in both.
Scheme schemeFor(bool dark)
{
    if (dark) {
        return {QColor(0x28, 0x2c, 0x34), QColor(0xab, 0xb2, 0xbf), QColor(0x7f, 0x84, 0x8e),
                QColor(0xd1, 0x9a, 0x66), QColor(0xc6, 0x78, 0xdd), QColor(0xe5, 0xc0, 0x7b),
                QColor(0x61, 0xaf, 0xef), QColor(0x98, 0xc3, 0x79), QColor(0x56, 0xb6, 0xc2),
                QColor(0xab, 0xb2, 0xbf), QColor(0x21, 0x25, 0x2b), QColor(0x63, 0x6d, 0x83),
                QColor(0x2c, 0x31, 0x3c), QColor(0x3e, 0x44, 0x51), QColor(0x51, 0x5a, 0x6b),
                QColor(0xe0, 0x6c, 0x75), QColor(0x3b, 0x40, 0x48), QColor(0x5c, 0x63, 0x70)};
    }
    return {QColor(0xfa, 0xfa, 0xfa), QColor(0x38, 0x3a, 0x42), QColor(0x9d, 0x9d, 0x9f),
            QColor(0x98, 0x68, 0x01), QColor(0xa6, 0x26, 0xa4), QColor(0xb3, 0x4d, 0x00),
            QColor(0x40, 0x78, 0xf2), QColor(0x50, 0xa1, 0x4f), QColor(0x01, 0x84, 0xbc),
            QColor(0x38, 0x3a, 0x42), QColor(0xf0, 0xf0, 0xf0), QColor(0x9d, 0x9d, 0x9f),
            QColor(0xee, 0xf1, 0xf8), QColor(0xd7, 0xe0, 0xf5), QColor(0xc8, 0xe6, 0xc9),
            QColor(0xff, 0xcd, 0xd2), QColor(0xe0, 0xe0, 0xe0), QColor(0xb0, 0xb0, 0xb0)};
}

QFont editorFont()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setStyleHint(QFont::Monospace);
    if (font.pointSizeF() < 10)
        font.setPointSizeF(10);
    return font;
}

void colorLexer(QsciLexer *lexer, const Scheme &s)
{
    const QFont font = editorFont();
    QFont bold = font;
    bold.setBold(true);
    QFont italic = font;
    italic.setItalic(true);

    lexer->setDefaultPaper(s.paper);
    lexer->setDefaultColor(s.text);
    lexer->setDefaultFont(font);
    lexer->setPaper(s.paper); // every style
    lexer->setFont(font);     // every style
    lexer->setColor(s.text);  // every style

    auto set = [&](int style, const QColor &color, const QFont &f) {
        lexer->setColor(color, style);
        lexer->setFont(f, style);
        // Lines in an inactive #if block keep their kind but are dimmed.
        lexer->setColor(s.inactive, style + 64);
        lexer->setFont(f, style + 64);
    };
    set(QsciLexerCPP::Default, s.text, font);
    set(QsciLexerCPP::Identifier, s.text, font);
    set(QsciLexerCPP::Operator, s.op, font);
    for (int style : {QsciLexerCPP::Comment, QsciLexerCPP::CommentLine, QsciLexerCPP::CommentDoc,
                      QsciLexerCPP::CommentLineDoc, QsciLexerCPP::PreProcessorComment,
                      QsciLexerCPP::PreProcessorCommentLineDoc})
        set(style, s.comment, italic);
    set(QsciLexerCPP::CommentDocKeyword, s.keyword, italic);
    set(QsciLexerCPP::CommentDocKeywordError, s.braceBad, italic);
    set(QsciLexerCPP::Number, s.number, font);
    set(QsciLexerCPP::Keyword, s.keyword, bold);
    set(CudaLexer::cudaKeywordStyle, s.cudaKeyword, bold);
    set(CudaLexer::cudaTypeStyle, s.cudaType, font);
    for (int style : {QsciLexerCPP::DoubleQuotedString, QsciLexerCPP::SingleQuotedString, QsciLexerCPP::RawString,
                      QsciLexerCPP::VerbatimString, QsciLexerCPP::UnclosedString})
        set(style, s.string, font);
    set(QsciLexerCPP::EscapeSequence, s.number, font);
    set(QsciLexerCPP::PreProcessor, s.preprocessor, font);
    set(QsciLexerCPP::TaskMarker, s.keyword, bold);
}
} // namespace

bool EditorSetup::isDark(Theme theme)
{
    switch (theme) {
    case Theme::Dark:
        return true;
    case Theme::Light:
        return false;
    case Theme::System:
        break;
    }
    return QApplication::palette().color(QPalette::Window).lightness() < 128;
}

void EditorSetup::configure(QsciScintilla *editor, bool dark)
{
    editor->setUtf8(true);
    editor->setEolMode(QsciScintilla::EolUnix);
    editor->setLexer(new CudaLexer(editor));

    editor->setMarginType(lineNumberMargin, QsciScintilla::NumberMargin);
    editor->setMarginLineNumbers(lineNumberMargin, true);
    editor->setMarginWidth(1, 0); // Scintilla's default symbol margin is unused until diagnostics arrive
    editor->setFolding(QsciScintilla::BoxedTreeFoldStyle, foldMargin);

    editor->setBraceMatching(QsciScintilla::SloppyBraceMatch);
    editor->setCaretLineVisible(true);
    editor->setAutoIndent(true);
    editor->setIndentationsUseTabs(false);
    editor->setIndentationWidth(4);
    editor->setTabWidth(4);
    editor->setIndentationGuides(true);
    editor->setBackspaceUnindents(true);
    editor->setWrapMode(QsciScintilla::WrapNone);
    editor->setScrollWidthTracking(true);
    editor->setScrollWidth(1);

    applyColors(editor, dark);
}

void EditorSetup::applyColors(QsciScintilla *editor, bool dark)
{
    const Scheme s = schemeFor(dark);
    if (QsciLexer *lexer = editor->lexer()) {
        colorLexer(lexer, s);
        // Re-applying the lexer pushes its (changed) styles into Scintilla.
        editor->setLexer(lexer);
    }
    const QFont font = editorFont();
    editor->setMarginsFont(font);
    editor->setMarginsBackgroundColor(s.marginPaper);
    editor->setMarginsForegroundColor(s.marginText);
    editor->setMarginWidth(lineNumberMargin, QFontMetrics(font).horizontalAdvance(QStringLiteral("00000")) + 6);
    editor->setFoldMarginColors(s.marginPaper, s.marginPaper);
    editor->setCaretForegroundColor(s.text);
    editor->setCaretLineBackgroundColor(s.caretLine);
    editor->setSelectionBackgroundColor(s.selection);
    editor->setSelectionForegroundColor(s.text);
    editor->setMatchedBraceBackgroundColor(s.braceMatch);
    editor->setMatchedBraceForegroundColor(s.text);
    editor->setUnmatchedBraceBackgroundColor(s.braceBad);
    editor->setUnmatchedBraceForegroundColor(s.text);
    editor->setIndentationGuidesBackgroundColor(s.paper);
    editor->setIndentationGuidesForegroundColor(s.indentGuide);
    editor->setPaper(s.paper);
    editor->setColor(s.text);
    // The fold markers (boxes, lines) in the margin's colours.
    for (unsigned long marker = QsciScintilla::SC_MARKNUM_FOLDEREND; marker <= QsciScintilla::SC_MARKNUM_FOLDEROPEN;
         ++marker) {
        editor->SendScintilla(QsciScintilla::SCI_MARKERSETFORE, marker, s.marginPaper);
        editor->SendScintilla(QsciScintilla::SCI_MARKERSETBACK, marker, s.marginText);
    }
}

} // namespace kforge
