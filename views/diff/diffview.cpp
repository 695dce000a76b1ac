#include "views/diff/diffview.h"

#include "views/editor/editorsetup.h"

#include <Qsci/qsciscintilla.h>

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace kforge {

namespace {
// Markers paint whole lines; indicators mark words inside them. Scintilla leaves 8..31 to applications.
enum Marker { RemovedLine = 20, AddedLine, ChangedLine, GapLine, FoldLine };
enum Indicator { RemovedWords = 8, AddedWords, FoldLink };

struct DiffColors {
    QColor removedLine, addedLine, changedLine, gapLine, foldLine, removedWords, addedWords, foldText;
};

DiffColors diffColors(bool dark)
{
    if (dark)
        return {QColor(0x4b, 0x25, 0x2a),      QColor(0x23, 0x44, 0x2c), QColor(0x3c, 0x3a, 0x24),
                QColor(0x2f, 0x33, 0x3a),      QColor(0x26, 0x34, 0x48), QColor(0xc0, 0x40, 0x50, 140),
                QColor(0x40, 0xb0, 0x60, 140), QColor(0x8a, 0xb4, 0xf8)};
    return {QColor(0xff, 0xe6, 0xe8),      QColor(0xe3, 0xf7, 0xe6), QColor(0xfb, 0xf5, 0xd8),
            QColor(0xee, 0xee, 0xee),      QColor(0xe6, 0xee, 0xfa), QColor(0xf0, 0x7c, 0x86, 150),
            QColor(0x5c, 0xc8, 0x78, 150), QColor(0x1a, 0x5f, 0xb4)};
}

QString lineNumber(int line)
{
    return line < 0 ? QString() : QString::number(line + 1);
}
} // namespace

DiffView::DiffView(QWidget *parent)
    : QWidget(parent)
{
    m_left = new QsciScintilla(this);
    m_right = new QsciScintilla(this);
    m_leftTitle = new QLabel(this);
    m_rightTitle = new QLabel(this);
    for (QLabel *title : {m_leftTitle, m_rightTitle}) {
        title->setTextFormat(Qt::PlainText);
        QFont f = title->font();
        f.setBold(true);
        title->setFont(f);
    }
    for (QsciScintilla *e : {m_left, m_right})
        defineStyles(e);

    m_previous = new QToolButton(this);
    m_previous->setIcon(style()->standardIcon(QStyle::SP_ArrowUp));
    m_previous->setText(tr("Previous Change"));
    m_previous->setToolTip(tr("Previous change (Alt+Up)"));
    m_previous->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));
    m_next = new QToolButton(this);
    m_next->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));
    m_next->setText(tr("Next Change"));
    m_next->setToolTip(tr("Next change (Alt+Down)"));
    m_next->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    m_fold = new QToolButton(this);
    m_fold->setText(tr("Fold Unchanged Lines"));
    m_fold->setCheckable(true);
    m_fold->setChecked(true);
    for (QToolButton *b : {m_previous, m_next, m_fold}) {
        b->setAutoRaise(true);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    }
    m_summary = new QLabel(this);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_previous);
    bar->addWidget(m_next);
    bar->addWidget(m_fold);
    bar->addStretch(1);
    bar->addWidget(m_summary);

    auto *leftPane = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(leftPane);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(2);
    leftLayout->addWidget(m_leftTitle);
    leftLayout->addWidget(m_left, 1);
    auto *rightPane = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(rightPane);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(2);
    rightLayout->addWidget(m_rightTitle);
    rightLayout->addWidget(m_right, 1);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(leftPane);
    splitter->addWidget(rightPane);
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);

    connect(m_previous, &QToolButton::clicked, this, &DiffView::previousChange);
    connect(m_next, &QToolButton::clicked, this, &DiffView::nextChange);
    connect(m_fold, &QToolButton::toggled, this, &DiffView::setFolding);

    // Both sides have the same rows, so the same scroll positions line up.
    auto sync = [this](QScrollBar *from, QScrollBar *to) {
        connect(from, &QScrollBar::valueChanged, this, [this, to](int value) {
            if (m_syncing)
                return;
            m_syncing = true;
            to->setValue(value);
            m_syncing = false;
        });
    };
    sync(m_left->verticalScrollBar(), m_right->verticalScrollBar());
    sync(m_right->verticalScrollBar(), m_left->verticalScrollBar());
    sync(m_left->horizontalScrollBar(), m_right->horizontalScrollBar());
    sync(m_right->horizontalScrollBar(), m_left->horizontalScrollBar());
    for (QsciScintilla *e : {m_left, m_right}) {
        connect(e, &QsciScintilla::indicatorClicked, this,
                [this](int line, int, Qt::KeyboardModifiers) { expandFoldAt(line); });
    }
    rebuild();
}

void DiffView::defineStyles(QsciScintilla *e)
{
    EditorSetup::configure(e, m_dark);
    e->setReadOnly(true);
    e->setCaretLineVisible(false); // it would hide the change colours
    e->setFolding(QsciScintilla::NoFoldStyle);
    // Line numbers of the original sources, not of the aligned rows.
    // (setMarginLineNumbers(false) would turn it into a symbol margin, so only the type is set.)
    e->setMarginType(EditorSetup::lineNumberMargin, QsciScintilla::TextMarginRightJustified);
    e->markerDefine(QsciScintilla::Background, RemovedLine);
    e->markerDefine(QsciScintilla::Background, AddedLine);
    e->markerDefine(QsciScintilla::Background, ChangedLine);
    e->markerDefine(QsciScintilla::Background, GapLine);
    e->markerDefine(QsciScintilla::Background, FoldLine);
    e->indicatorDefine(QsciScintilla::FullBoxIndicator, RemovedWords);
    e->indicatorDefine(QsciScintilla::FullBoxIndicator, AddedWords);
    e->indicatorDefine(QsciScintilla::TextColorIndicator, FoldLink);
    e->setIndicatorHoverStyle(QsciScintilla::PlainIndicator, FoldLink);
    const DiffColors c = diffColors(m_dark);
    e->setMarkerBackgroundColor(c.removedLine, RemovedLine);
    e->setMarkerBackgroundColor(c.addedLine, AddedLine);
    e->setMarkerBackgroundColor(c.changedLine, ChangedLine);
    e->setMarkerBackgroundColor(c.gapLine, GapLine);
    e->setMarkerBackgroundColor(c.foldLine, FoldLine);
    e->setIndicatorForegroundColor(c.removedWords, RemovedWords);
    e->setIndicatorForegroundColor(c.addedWords, AddedWords);
    e->setIndicatorForegroundColor(c.foldText, FoldLink);
    e->setIndicatorHoverForegroundColor(c.foldText, FoldLink);
    e->setIndicatorDrawUnder(true, RemovedWords);
    e->setIndicatorDrawUnder(true, AddedWords);
}

void DiffView::setSources(const QString &leftTitle, const QString &left, const QString &rightTitle, const QString &right)
{
    m_leftTitle->setText(leftTitle);
    m_rightTitle->setText(rightTitle);
    m_model.setTexts(left, right);
    m_currentRow = -1;
    rebuild();
}

QString DiffView::leftTitle() const
{
    return m_leftTitle->text();
}

QString DiffView::rightTitle() const
{
    return m_rightTitle->text();
}

void DiffView::setDarkTheme(bool dark)
{
    m_dark = dark;
    for (QsciScintilla *e : {m_left, m_right}) {
        EditorSetup::applyColors(e, dark);
        e->setCaretLineVisible(false);
        defineStyles(e);
    }
    rebuild();
}

void DiffView::setFolding(bool enabled)
{
    if (m_fold->isChecked() != enabled)
        m_fold->setChecked(enabled); // comes back here through toggled()
    const int line = m_left->firstVisibleLine();
    m_model.setFolding(enabled);
    m_currentRow = -1;
    rebuild();
    m_left->setFirstVisibleLine(std::min(line, std::max(0, m_model.rowCount() - 1)));
}

void DiffView::expandFoldAt(int row)
{
    if (row < 0 || row >= m_model.rowCount() || m_model.rows()[size_t(row)].kind != DiffRow::Fold)
        return;
    const int first = m_left->firstVisibleLine();
    m_model.expandFold(m_model.rows()[size_t(row)].foldKey);
    rebuild();
    m_left->setFirstVisibleLine(first);
}

void DiffView::rebuild()
{
    for (QsciScintilla *e : {m_left, m_right}) {
        QStringList lines;
        lines.reserve(m_model.rowCount());
        const bool leftSide = e == m_left;
        for (const DiffRow &r : m_model.rows()) {
            if (r.kind == DiffRow::Fold)
                lines << tr("⋯ %1 unchanged lines — click to show ⋯").arg(r.foldedLines);
            else
                lines << (leftSide ? r.left : r.right);
        }
        e->setReadOnly(false);
        e->setText(lines.join(u'\n'));
        e->setReadOnly(true);
        decorate(e, leftSide);
    }
    const bool changes = !m_model.changeStarts().empty();
    m_previous->setEnabled(changes);
    m_next->setEnabled(changes);
    m_summary->setText(summary());
}

void DiffView::decorate(QsciScintilla *e, bool leftSide)
{
    e->markerDeleteAll();
    e->clearMarginText();
    int widest = 1;
    const auto &rows = m_model.rows();
    for (int i = 0; i < int(rows.size()); ++i) {
        const DiffRow &r = rows[size_t(i)];
        const int line = leftSide ? r.leftLine : r.rightLine;
        const QString number = lineNumber(line);
        widest = std::max(widest, int(number.size()));
        if (!number.isEmpty())
            e->setMarginText(i, number, QsciScintillaBase::STYLE_LINENUMBER);
        switch (r.kind) {
        case DiffRow::Same: break;
        case DiffRow::Changed:
            e->markerAdd(i, ChangedLine);
            for (const DiffSpan &s : leftSide ? r.leftSpans : r.rightSpans)
                e->fillIndicatorRange(i, s.start, i, s.start + s.length, leftSide ? RemovedWords : AddedWords);
            break;
        case DiffRow::Removed: e->markerAdd(i, leftSide ? RemovedLine : GapLine); break;
        case DiffRow::Added: e->markerAdd(i, leftSide ? GapLine : AddedLine); break;
        case DiffRow::Fold:
            e->markerAdd(i, FoldLine);
            e->fillIndicatorRange(i, 0, i, e->lineLength(i), FoldLink);
            break;
        }
    }
    e->setMarginWidth(EditorSetup::lineNumberMargin, QString(widest + 1, u'9'));
}

void DiffView::nextChange()
{
    const int row = m_model.nextChange(m_currentRow);
    if (row >= 0)
        goToRow(row);
    else if (!m_model.changeStarts().empty())
        goToRow(m_model.changeStarts().front()); // wrap around
}

void DiffView::previousChange()
{
    const int row = m_model.previousChange(m_currentRow < 0 ? m_model.rowCount() : m_currentRow);
    if (row >= 0)
        goToRow(row);
    else if (!m_model.changeStarts().empty())
        goToRow(m_model.changeStarts().back());
}

void DiffView::goToRow(int row)
{
    m_currentRow = row;
    for (QsciScintilla *e : {m_left, m_right}) {
        e->setCursorPosition(row, 0);
        // A little context above the change.
        e->setFirstVisibleLine(std::max(0, row - 3));
    }
    Q_EMIT currentRowChanged(row);
}

QString DiffView::summary() const
{
    if (m_model.rowCount() == 0)
        return {};
    if (m_model.identical())
        return tr("The sources are identical");
    return tr("Changes: %1 (lines changed: %2, removed: %3, added: %4)")
        .arg(m_model.changeStarts().size())
        .arg(m_model.changedLines())
        .arg(m_model.removedLines())
        .arg(m_model.addedLines());
}

} // namespace kforge
