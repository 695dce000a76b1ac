#pragma once
// Two sources aligned row by row for a side-by-side diff (line diff with dtl, then a token diff inside each
// changed pair of lines), with long unchanged runs folded. Plain computation: no widgets, easy to test.
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

namespace kforge {

// A changed stretch inside one line, in QChar units.
struct DiffSpan {
    int start = 0;
    int length = 0;
    friend bool operator==(const DiffSpan &, const DiffSpan &) = default;
};

struct DiffRow {
    enum Kind {
        Same,    // the line is in both sources
        Changed, // a line of the left replaced by a line of the right (spans say where)
        Removed, // only on the left; the right shows a gap
        Added,   // only on the right; the left shows a gap
        Fold,    // a run of unchanged lines, hidden
    };
    Kind kind = Same;
    int leftLine = -1; // 0-based line of the left source; -1 for a gap (and for Fold)
    int rightLine = -1;
    QString left;
    QString right;
    QList<DiffSpan> leftSpans;
    QList<DiffSpan> rightSpans;
    int foldedLines = 0; // Fold: how many unchanged lines it hides
    int foldKey = -1;    // Fold: pass to expandFold()
};

class DiffModel
{
public:
    static constexpr int defaultContext = 3;

    void setTexts(const QString &left, const QString &right);
    // Unchanged lines kept visible around each change; longer unchanged runs become one Fold row.
    void setContext(int lines);
    int context() const { return m_context; }
    void setFolding(bool enabled);
    bool folding() const { return m_folding; }
    void expandFold(int foldKey);
    void collapseAll();

    const std::vector<DiffRow> &rows() const { return m_rows; }
    int rowCount() const { return int(m_rows.size()); }
    bool identical() const { return m_changeBlocks == 0; }

    // Row indices of the first row of each change block (Changed/Removed/Added rows in a run).
    const std::vector<int> &changeStarts() const { return m_changeStarts; }
    // The next change block starting after `row` (-1: none); the previous one starting before it.
    int nextChange(int row) const;
    int previousChange(int row) const;

    int addedLines() const { return m_added; }
    int removedLines() const { return m_removed; }
    int changedLines() const { return m_changed; }

    // One line per row: "=  3  3 | text", "~  4  4 | old -> new", "-  5  . | text", "+  .  6 | text",
    // "@ 42 lines folded" (for tests and debugging).
    QString dump() const;

    // The token diff of two lines (identifiers, numbers, spaces and single punctuation characters).
    static void lineSpans(const QString &left, const QString &right, QList<DiffSpan> *leftSpans,
                          QList<DiffSpan> *rightSpans);

    // How alike two lines are, 0..1: the share of their characters (spaces at the ends ignored) the token
    // diff leaves unchanged.
    static double similarity(const QString &left, const QString &right);

private:
    std::vector<std::pair<int, int>> similarPairs(const std::vector<int> &deleted, const std::vector<int> &added) const;
    void compute();
    void layout();

    QStringList m_left;
    QStringList m_right;
    std::vector<DiffRow> m_full; // every row, nothing folded
    std::vector<DiffRow> m_rows; // what is shown
    std::vector<int> m_changeStarts;
    QSet<int> m_expanded; // fold keys (left line where the hidden run starts) the user opened
    int m_context = defaultContext;
    bool m_folding = true;
    int m_added = 0;
    int m_removed = 0;
    int m_changed = 0;
    int m_changeBlocks = 0;
};

} // namespace kforge
