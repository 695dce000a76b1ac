#include "views/editor/editorsetup.h"

#include "views/editor/cudalexer.h"

#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>

#include <Qsci/qscistyle.h>

#include <QApplication>
#include <QFileInfo>
#include <QFontDatabase>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QWidget>

#include <algorithm>

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
        return {QColor(0x28, 0x2c, 0x34), QColor(0xab, 0xb2, 0xbf), QColor(0x7f, 0x84, 0x8e), QColor(0xd1, 0x9a, 0x66),
                QColor(0xc6, 0x78, 0xdd), QColor(0xe5, 0xc0, 0x7b), QColor(0x61, 0xaf, 0xef), QColor(0x98, 0xc3, 0x79),
                QColor(0x56, 0xb6, 0xc2), QColor(0xab, 0xb2, 0xbf), QColor(0x21, 0x25, 0x2b), QColor(0x63, 0x6d, 0x83),
                QColor(0x2c, 0x31, 0x3c), QColor(0x3e, 0x44, 0x51), QColor(0x51, 0x5a, 0x6b), QColor(0xe0, 0x6c, 0x75),
                QColor(0x3b, 0x40, 0x48), QColor(0x5c, 0x63, 0x70)};
    }
    return {QColor(0xfa, 0xfa, 0xfa), QColor(0x38, 0x3a, 0x42), QColor(0x9d, 0x9d, 0x9f), QColor(0x98, 0x68, 0x01),
            QColor(0xa6, 0x26, 0xa4), QColor(0xb3, 0x4d, 0x00), QColor(0x40, 0x78, 0xf2), QColor(0x50, 0xa1, 0x4f),
            QColor(0x01, 0x84, 0xbc), QColor(0x38, 0x3a, 0x42), QColor(0xf0, 0xf0, 0xf0), QColor(0x9d, 0x9d, 0x9f),
            QColor(0xee, 0xf1, 0xf8), QColor(0xd7, 0xe0, 0xf5), QColor(0xc8, 0xe6, 0xc9), QColor(0xff, 0xcd, 0xd2),
            QColor(0xe0, 0xe0, 0xe0), QColor(0xb0, 0xb0, 0xb0)};
}

QFont editorFont()
{
    return EditorSetup::font();
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

    if (qobject_cast<QsciLexerPython *>(lexer)) {
        // The same scheme on Python's styles: keywords as C++'s, decorators as the preprocessor, builtins'
        // second keyword set as CUDA's types.
        const auto py = [&](int style, const QColor &color, const QFont &f) {
            lexer->setColor(color, style);
            lexer->setFont(f, style);
        };
        py(QsciLexerPython::Default, s.text, font);
        py(QsciLexerPython::Identifier, s.text, font);
        py(QsciLexerPython::Operator, s.op, font);
        py(QsciLexerPython::Comment, s.comment, italic);
        py(QsciLexerPython::CommentBlock, s.comment, italic);
        py(QsciLexerPython::Number, s.number, font);
        py(QsciLexerPython::Keyword, s.keyword, bold);
        py(QsciLexerPython::HighlightedIdentifier, s.cudaType, font);
        for (int style : {QsciLexerPython::DoubleQuotedString, QsciLexerPython::SingleQuotedString,
                          QsciLexerPython::TripleSingleQuotedString, QsciLexerPython::TripleDoubleQuotedString,
                          QsciLexerPython::DoubleQuotedFString, QsciLexerPython::SingleQuotedFString,
                          QsciLexerPython::TripleSingleQuotedFString, QsciLexerPython::TripleDoubleQuotedFString,
                          QsciLexerPython::UnclosedString})
            py(style, s.string, font);
        py(QsciLexerPython::ClassName, s.cudaKeyword, bold);
        py(QsciLexerPython::FunctionMethodName, s.cudaType, bold);
        py(QsciLexerPython::Decorator, s.preprocessor, font);
        return;
    }
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
    for (int style : {QsciLexerCPP::Comment, QsciLexerCPP::CommentLine, QsciLexerCPP::CommentDoc, QsciLexerCPP::CommentLineDoc,
                      QsciLexerCPP::PreProcessorComment, QsciLexerCPP::PreProcessorCommentLineDoc})
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

struct SeverityColors {
    QColor marker, glyph, annotationText, annotationPaper;
};

// Markers in the scheme's red, amber and blue; annotations as a tint of the paper with text dark (light
// scheme) or light (dark scheme) enough for a contrast ratio well above 4.5.
SeverityColors severityColors(Diagnostic::Severity severity, bool dark)
{
    switch (severity) {
    case Diagnostic::Severity::Error:
        return dark ? SeverityColors{QColor(0xe0, 0x6c, 0x75), QColor(0xff, 0xff, 0xff), QColor(0xf4, 0xb4, 0xb9),
                                     QColor(0x3e, 0x2b, 0x31)}
                    : SeverityColors{QColor(0xd7, 0x3a, 0x2f), QColor(0xff, 0xff, 0xff), QColor(0xa3, 0x1f, 0x16),
                                     QColor(0xfc, 0xe9, 0xe7)};
    case Diagnostic::Severity::Warning:
        return dark ? SeverityColors{QColor(0xe5, 0xc0, 0x7b), QColor(0x28, 0x2c, 0x34), QColor(0xe8, 0xc9, 0x8e),
                                     QColor(0x3a, 0x35, 0x29)}
                    : SeverityColors{QColor(0xe0, 0x9b, 0x00), QColor(0x2b, 0x22, 0x00), QColor(0x7a, 0x55, 0x00),
                                     QColor(0xfd, 0xf3, 0xd6)};
    case Diagnostic::Severity::Note: break;
    }
    return dark ? SeverityColors{QColor(0x61, 0xaf, 0xef), QColor(0x28, 0x2c, 0x34), QColor(0xa4, 0xcd, 0xf4),
                                 QColor(0x2a, 0x33, 0x42)}
                : SeverityColors{QColor(0x40, 0x78, 0xf2), QColor(0xff, 0xff, 0xff), QColor(0x23, 0x52, 0xb0),
                                 QColor(0xe8, 0xef, 0xfc)};
}

// The diagnostic markers follow the line height of the editor font.
int markerSize()
{
    return qBound(9, QFontMetrics(editorFont()).height() - 2, 16);
}
} // namespace

int EditorSetup::markerFor(Diagnostic::Severity severity)
{
    switch (severity) {
    case Diagnostic::Severity::Error: return errorMarker;
    case Diagnostic::Severity::Warning: return warningMarker;
    case Diagnostic::Severity::Note: break;
    }
    return noteMarker;
}

int EditorSetup::indicatorFor(Diagnostic::Severity severity)
{
    switch (severity) {
    case Diagnostic::Severity::Error: return errorIndicator;
    case Diagnostic::Severity::Warning: return warningIndicator;
    case Diagnostic::Severity::Note: break;
    }
    return noteIndicator;
}

int EditorSetup::annotationStyleFor(Diagnostic::Severity severity)
{
    switch (severity) {
    case Diagnostic::Severity::Error: return errorAnnotationStyle;
    case Diagnostic::Severity::Warning: return warningAnnotationStyle;
    case Diagnostic::Severity::Note: break;
    }
    return noteAnnotationStyle;
}

QColor EditorSetup::severityColor(Diagnostic::Severity severity, bool dark)
{
    return severityColors(severity, dark).marker;
}

QImage EditorSetup::severityImage(Diagnostic::Severity severity, bool dark, int size)
{
    const SeverityColors c = severityColors(severity, dark);
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    const qreal s = size;
    QPen glyph(c.glyph, qMax(1.5, s / 7.0), Qt::SolidLine, Qt::RoundCap);
    switch (severity) {
    case Diagnostic::Severity::Error:
        p.setPen(Qt::NoPen);
        p.setBrush(c.marker);
        p.drawEllipse(QRectF(0.5, 0.5, s - 1, s - 1));
        p.setPen(glyph);
        p.drawLine(QPointF(s * 0.33, s * 0.33), QPointF(s * 0.67, s * 0.67));
        p.drawLine(QPointF(s * 0.67, s * 0.33), QPointF(s * 0.33, s * 0.67));
        break;
    case Diagnostic::Severity::Warning: {
        QPainterPath triangle;
        triangle.moveTo(s * 0.5, s * 0.04);
        triangle.lineTo(s * 0.98, s * 0.94);
        triangle.lineTo(s * 0.02, s * 0.94);
        triangle.closeSubpath();
        p.setPen(Qt::NoPen);
        p.setBrush(c.marker);
        p.drawPath(triangle);
        p.setPen(glyph);
        p.drawLine(QPointF(s * 0.5, s * 0.36), QPointF(s * 0.5, s * 0.62));
        p.drawPoint(QPointF(s * 0.5, s * 0.79));
        break;
    }
    case Diagnostic::Severity::Note:
        p.setPen(Qt::NoPen);
        p.setBrush(c.marker);
        p.drawEllipse(QRectF(0.5, 0.5, s - 1, s - 1));
        p.setPen(glyph);
        p.drawPoint(QPointF(s * 0.5, s * 0.28));
        p.drawLine(QPointF(s * 0.5, s * 0.46), QPointF(s * 0.5, s * 0.74));
        break;
    }
    p.end();
    return image;
}

EditorSetup::PanelColors EditorSetup::panelColors(bool dark)
{
    const Scheme s = schemeFor(dark);
    PanelColors c;
    c.paper = s.marginPaper;
    c.text = s.text;
    c.dim = dark ? QColor(0x8b, 0x93, 0xa3) : QColor(0x6a, 0x6c, 0x73);
    c.barPaper = dark ? QColor(0x2a, 0x33, 0x42) : QColor(0xe8, 0xef, 0xfc);
    c.barText = dark ? QColor(0xc8, 0xd6, 0xea) : QColor(0x23, 0x3f, 0x7a);
    c.error = severityColors(Diagnostic::Severity::Error, dark).annotationText;
    c.warning = severityColors(Diagnostic::Severity::Warning, dark).annotationText;
    c.note = severityColors(Diagnostic::Severity::Note, dark).annotationText;
    return c;
}

void EditorSetup::applyPanelColors(QWidget *panel, bool dark, bool bar)
{
    const PanelColors c = panelColors(dark);
    QPalette pal = panel->palette();
    pal.setColor(QPalette::Window, bar ? c.barPaper : c.paper);
    pal.setColor(QPalette::WindowText, bar ? c.barText : c.text);
    pal.setColor(QPalette::PlaceholderText, c.dim);
    panel->setPalette(pal);
    panel->setAutoFillBackground(true);
}

bool EditorSetup::isDark(Theme theme)
{
    switch (theme) {
    case Theme::Dark: return true;
    case Theme::Light: return false;
    case Theme::System: break;
    }
    return QApplication::palette().color(QPalette::Window).lightness() < 128;
}

QString EditorSetup::fontFamily()
{
    return QStringLiteral("DejaVu Sans Mono");
}

QFont EditorSetup::font()
{
    const QFont system = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    QFont font = QFontDatabase::hasFamily(fontFamily()) ? QFont(fontFamily()) : system;
    font.setStyleHint(QFont::Monospace);
    font.setPointSizeF(std::max(10.0, system.pointSizeF()));
    return font;
}

void EditorSetup::configure(QsciScintilla *editor, bool dark)
{
    editor->setUtf8(true);
    editor->setEolMode(QsciScintilla::EolUnix);
    editor->setLexer(new CudaLexer(editor));

    editor->setMarginType(lineNumberMargin, QsciScintilla::NumberMargin);
    editor->setMarginLineNumbers(lineNumberMargin, true);
    editor->setMarginMarkerMask(lineNumberMargin, 0);
    editor->setMarginType(diagnosticMargin, QsciScintilla::SymbolMarginColor);
    editor->setMarginMarkerMask(diagnosticMargin, int(diagnosticMarkerMask));
    editor->setMarginSensitivity(diagnosticMargin, true); // a click shows the line's messages
    editor->setFolding(QsciScintilla::BoxedTreeFoldStyle, foldMargin);
    // Messages under their line, indented like the code they are about.
    editor->setAnnotationDisplay(QsciScintilla::AnnotationIndented);
    for (int indicator : {noteIndicator, warningIndicator, errorIndicator})
        editor->indicatorDefine(QsciScintilla::SquigglePixmapIndicator, indicator);

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

bool EditorSetup::isPythonFile(const QString &fileName)
{
    return QFileInfo(fileName).suffix().compare(QLatin1String("py"), Qt::CaseInsensitive) == 0;
}

void EditorSetup::setLanguageFor(QsciScintilla *editor, const QString &fileName, bool dark)
{
    const bool python = isPythonFile(fileName);
    QsciLexer *old = editor->lexer();
    if (python == (qobject_cast<QsciLexerPython *>(old) != nullptr))
        return;
    QsciLexer *lexer = nullptr;
    if (python) {
        auto *py = new QsciLexerPython(editor);
        py->setFoldComments(true);
        py->setIndentationWarning(QsciLexerPython::Inconsistent);
        lexer = py;
    } else {
        lexer = new CudaLexer(editor);
    }
    editor->setLexer(lexer);
    if (old && old->parent() == editor)
        old->deleteLater();
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
    editor->setMarginBackgroundColor(diagnosticMargin, s.marginPaper);
    const int size = markerSize();
    editor->setMarginWidth(diagnosticMargin, size + 4);
    // Re-applying the lexer reset every style to the default, the annotation styles included.
    QFont annotationFont = font;
    annotationFont.setPointSizeF(font.pointSizeF() * 0.95);
    for (auto severity : {Diagnostic::Severity::Note, Diagnostic::Severity::Warning, Diagnostic::Severity::Error}) {
        const SeverityColors c = severityColors(severity, dark);
        QsciStyle(annotationStyleFor(severity), {}, c.annotationText, c.annotationPaper, annotationFont, true).apply(editor);
        editor->markerDefine(severityImage(severity, dark, size), markerFor(severity));
        editor->setIndicatorForegroundColor(c.marker, indicatorFor(severity));
    }
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
