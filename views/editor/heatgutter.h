#pragma once
// The editor's heat gutter: a text margin beside the code showing each line's share of the PC samples
// ("38%") on a tint of its heat, and the line's top stall reasons in a call tip when the mouse rests on it.
// Owned by its editor (one per editor, found again with of()).
#include "core/sourcelevel/sourceheat.h"

#include <QObject>

class QsciScintilla;

namespace kforge {

class HeatLinesModel;

class HeatGutter : public QObject
{
    Q_OBJECT
public:
    // The gutter of `editor`, made on first use.
    static HeatGutter *of(QsciScintilla *editor);

    // Paints `heat` (lines of the editor's text, 1-based); an empty heat hides the margin.
    void setHeat(const SourceHeat &heat);
    void clear();
    bool isShown() const;
    HeatLinesModel *model() const { return m_model; }
    // The margin's text on a 1-based line ("38%"), empty when the line has no samples.
    QString marginText(int line) const;
    // What the call tip says for a 1-based line (its samples, stalls and executed instructions); empty when
    // the line has neither samples nor an execution count.
    QString tipForLine(int line) const;
    void setDarkTheme(bool dark);

private:
    explicit HeatGutter(QsciScintilla *editor);
    void paint();
    void onDwell(int position, int x, int y);

    QsciScintilla *m_editor;
    HeatLinesModel *m_model;
    bool m_dark = false;
};

} // namespace kforge
