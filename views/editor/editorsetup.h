#pragma once
// All set-up of a kernel editor in one place: lexer, font, margins, folding, brace matching, indentation and
// the light and dark colour schemes.
#include "core/settings/settings.h"

class QsciScintilla;

namespace kforge {

class EditorSetup
{
public:
    // Gives `editor` a CudaLexer and the KForge look; call once per editor.
    static void configure(QsciScintilla *editor, bool dark);
    // Re-colours an editor configured before (theme switched at run time).
    static void applyColors(QsciScintilla *editor, bool dark);
    // Resolves Theme::System from the application palette.
    static bool isDark(Theme theme);

    static constexpr int lineNumberMargin = 0;
    static constexpr int foldMargin = 2;
};

} // namespace kforge
