#pragma once
// All set-up of a kernel editor in one place: lexer, font, margins, folding, brace matching, indentation,
// the diagnostic markers, squiggles and annotation styles, and the light and dark colour schemes (also for
// the bars around an editor).
#include "core/eval/diagnostic.h"
#include "core/settings/settings.h"

#include <QColor>
#include <QFont>
#include <QImage>
#include <QString>

class QsciScintilla;
class QWidget;

namespace kforge {

class EditorSetup
{
public:
    // Gives `editor` a CudaLexer and the KForge look; call once per editor.
    static void configure(QsciScintilla *editor, bool dark);
    // The lexer for a file: QsciLexerPython for *.py (a torch task's reference and ModelNew candidates), the
    // CudaLexer for anything else; kept when it is already the right one.
    static void setLanguageFor(QsciScintilla *editor, const QString &fileName, bool dark);
    static bool isPythonFile(const QString &fileName);
    // Re-colours an editor configured before (theme switched at run time).
    static void applyColors(QsciScintilla *editor, bool dark);
    // Resolves Theme::System from the application palette.
    static bool isDark(Theme theme);
    // The editor's font, the same on every machine: DejaVu Sans Mono (the package depends on
    // fonts-dejavu-core), at the system fixed font's size and at least 10 pt. Where the family is missing,
    // the system's fixed-pitch font. Whichever monospace font fontconfig prefers (Noto Mono, Liberation Mono...)
    // would change how many lines the editor shows.
    static QFont font();
    static QString fontFamily();

    static constexpr int lineNumberMargin = 0;
    // The symbol margin for compiler diagnostics; always shown, so the text does not shift when a compile
    // reports its first error.
    static constexpr int diagnosticMargin = 1;
    static constexpr int foldMargin = 2;
    // The heat gutter (HeatGutter): each line's share of PC samples, next to the text; hidden without a profile.
    static constexpr int heatMargin = 3;

    // Diagnostic markers. Scintilla paints higher numbers on top, so an error hides a warning on its line.
    static constexpr int noteMarker = 10;
    static constexpr int warningMarker = 11;
    static constexpr int errorMarker = 12;
    static constexpr unsigned diagnosticMarkerMask = (1u << noteMarker) | (1u << warningMarker) | (1u << errorMarker);
    // Squiggles under the token a diagnostic's column points at.
    static constexpr int noteIndicator = 20;
    static constexpr int warningIndicator = 21;
    static constexpr int errorIndicator = 22;
    // Styles of inline annotations; free numbers between Scintilla's predefined styles (32..39) and the
    // lexer's inactive-code styles (64 and up).
    static constexpr int noteAnnotationStyle = 48;
    static constexpr int warningAnnotationStyle = 49;
    static constexpr int errorAnnotationStyle = 50;
    // The heat gutter's margin-text styles, one per heat level (51..55).
    static constexpr int firstHeatStyle = 51;
    static constexpr int heatStyleCount = 5;

    static int markerFor(Diagnostic::Severity severity);
    static int indicatorFor(Diagnostic::Severity severity);
    static int annotationStyleFor(Diagnostic::Severity severity);

    // The marker's picture (also the tab's icon): a red disc with a cross, an amber triangle with "!", a
    // blue disc with "i"; each glyph carries its own contrast, so it reads on a light and a dark margin.
    static QImage severityImage(Diagnostic::Severity severity, bool dark, int size);

    // Colours of the bars around an editor (read-only bar above, info strip below), matching its scheme.
    struct PanelColors {
        QColor paper, text, dim, barPaper, barText, error, warning, note;
    };
    static PanelColors panelColors(bool dark);
    static QColor severityColor(Diagnostic::Severity severity, bool dark);
    // Paints `panel` (auto-filled) in the strip's or, with `bar`, the read-only bar's colours.
    static void applyPanelColors(QWidget *panel, bool dark, bool bar);
};

} // namespace kforge
