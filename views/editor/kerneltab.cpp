#include "views/editor/kerneltab.h"

#include "views/editor/diagnosticformat.h"
#include "views/editor/editorsetup.h"
#include "views/editor/kernelinfostrip.h"
#include "views/editor/readonlybar.h"

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyledtext.h>

#include <QMap>
#include <QPixmap>
#include <QVBoxLayout>

#include <algorithm>

namespace kforge {

namespace {
constexpr unsigned long textModification = QsciScintilla::SC_MOD_INSERTTEXT | QsciScintilla::SC_MOD_DELETETEXT;
}

KernelTab::KernelTab(bool dark, QWidget *parent)
    : QWidget(parent)
    , m_dark(dark)
{
    m_bar = new ReadOnlyBar(this);
    m_bar->hide();
    m_editor = new QsciScintilla(this);
    EditorSetup::configure(m_editor, dark);
    m_strip = new KernelInfoStrip(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_bar);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_strip);
    setFocusProxy(m_editor);
    m_bar->setDarkTheme(dark);
    m_strip->setDarkTheme(dark);

    connect(m_bar, &ReadOnlyBar::forkClicked, this, &KernelTab::forkClicked);
    connect(m_editor, &QsciScintilla::SCN_MODIFIED, this,
            [this](int position, int type, const char *, int, int, int, int, int, int, int) {
                if ((static_cast<unsigned long>(type) & textModification) != 0)
                    markEdited(position);
            });
    connect(m_editor, &QsciScintilla::marginClicked, this, [this](int margin, int line, Qt::KeyboardModifiers) {
        if (margin == EditorSetup::diagnosticMargin)
            showLineMessage(line);
    });
}

void KernelTab::setCompileFileName(const QString &fileName)
{
    m_compileFileName = fileName;
    EditorSetup::setLanguageFor(m_editor, fileName, m_dark);
}

void KernelTab::setReadOnly(bool readOnly)
{
    m_editor->setReadOnly(readOnly);
    updateBar();
}

bool KernelTab::isReadOnly() const
{
    return m_editor->isReadOnly();
}

void KernelTab::setReference(bool reference)
{
    m_reference = reference;
    updateBar();
}

void KernelTab::setVariantId(qint64 id)
{
    m_variantId = id;
}

bool KernelTab::canEvaluate() const
{
    // The reference of a session can be measured (its tab is read-only but belongs to a variant); a task folder's
    // reference without a session cannot.
    return !isReadOnly() || m_variantId != 0;
}

void KernelTab::setDiagnostics(const QList<Diagnostic> &diagnostics)
{
    removeMarks();
    m_all = diagnostics;
    QList<Diagnostic> unmarked;
    const int lines = m_editor->lines();
    for (const Diagnostic &d : diagnostics) {
        if (!DiagnosticFormat::isInSource(d, m_compileFileName) || d.line > lines) {
            unmarked << d;
            continue;
        }
        const int line = d.line - 1;
        Mark mark;
        mark.diagnostic = d;
        mark.handle = m_editor->markerAdd(line, EditorSetup::markerFor(d.severity));
        m_marks << mark;
        if (d.column > 0) {
            // Squiggle the token the column points at (one character when it is punctuation).
            const long lineStart = m_editor->SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, line);
            const long lineEnd = m_editor->SendScintilla(QsciScintilla::SCI_GETLINEENDPOSITION, line);
            const long start = std::min(lineEnd, long(m_editor->positionFromLineIndex(line, d.column - 1)));
            long end = m_editor->SendScintilla(QsciScintilla::SCI_WORDENDPOSITION, start, 1L);
            if (end <= start)
                end = m_editor->SendScintilla(QsciScintilla::SCI_POSITIONAFTER, start);
            end = std::min(end, lineEnd);
            if (start >= lineStart && end > start) {
                m_editor->SendScintilla(QsciScintilla::SCI_SETINDICATORCURRENT, EditorSetup::indicatorFor(d.severity));
                m_editor->SendScintilla(QsciScintilla::SCI_INDICATORFILLRANGE, start, end - start);
            }
        }
    }
    renderAnnotations();
    m_strip->setDiagnostics(diagnostics, unmarked);
    Q_EMIT diagnosticsChanged();
}

void KernelTab::clearDiagnostics()
{
    removeMarks();
    m_all.clear();
    m_strip->setDiagnostics({}, {});
    Q_EMIT diagnosticsChanged();
}

QList<Diagnostic> KernelTab::markedDiagnostics() const
{
    QList<Diagnostic> list;
    for (const Mark &m : m_marks)
        list << m.diagnostic;
    return list;
}

QList<int> KernelTab::markedLines() const
{
    QList<int> lines;
    for (const Mark &m : m_marks)
        lines << lineOf(m);
    return lines;
}

bool KernelTab::hasStops() const
{
    return std::any_of(m_marks.cbegin(), m_marks.cend(),
                       [](const Mark &m) { return m.diagnostic.severity != Diagnostic::Severity::Note; });
}

bool KernelTab::goToDiagnostic(bool forward)
{
    struct Stop {
        int line, column, mark;
        auto operator<=>(const Stop &) const = default;
    };
    QList<Stop> stops;
    for (int i = 0; i < m_marks.size(); ++i) {
        const Mark &m = m_marks.at(i);
        const int line = lineOf(m);
        if (m.diagnostic.severity == Diagnostic::Severity::Note || line < 0)
            continue;
        const int length = int(m_editor->SendScintilla(QsciScintilla::SCI_GETLINEENDPOSITION, line)
                               - m_editor->SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, line));
        stops.push_back({line, std::clamp(m.diagnostic.column - 1, 0, length), i});
    }
    if (stops.isEmpty())
        return false;
    std::sort(stops.begin(), stops.end());

    int line = 0, column = 0;
    m_editor->getCursorPosition(&line, &column);
    const qsizetype n = stops.size();
    qsizetype pick = -1;
    // Standing where the last jump put the cursor: step from that stop (several can share a place).
    for (qsizetype i = 0; i < n; ++i)
        if (stops.at(i).mark == m_navMark && stops.at(i).line == line && stops.at(i).column == column)
            pick = forward ? (i + 1) % n : (i + n - 1) % n;
    if (pick < 0) {
        if (forward) {
            const auto it = std::find_if(stops.cbegin(), stops.cend(), [&](const Stop &s) {
                return s.line > line || (s.line == line && s.column > column);
            });
            pick = it == stops.cend() ? 0 : it - stops.cbegin();
        } else {
            const auto it = std::find_if(stops.crbegin(), stops.crend(), [&](const Stop &s) {
                return s.line < line || (s.line == line && s.column < column);
            });
            pick = it == stops.crend() ? n - 1 : n - 1 - (it - stops.crbegin());
        }
    }
    const Stop &stop = stops.at(pick);
    m_navMark = stop.mark;
    m_editor->setCursorPosition(stop.line, stop.column);
    m_editor->ensureLineVisible(stop.line);
    m_strip->showMessage(inThisText(m_marks.at(stop.mark)));
    return true;
}

QIcon KernelTab::statusIcon() const
{
    bool errors = false;
    bool warnings = false;
    for (const Diagnostic &d : m_all) {
        errors |= d.severity == Diagnostic::Severity::Error;
        warnings |= d.severity == Diagnostic::Severity::Warning;
    }
    if (!errors && !warnings)
        return {};
    return QIcon(QPixmap::fromImage(
        EditorSetup::severityImage(errors ? Diagnostic::Severity::Error : Diagnostic::Severity::Warning, m_dark, 14)));
}

void KernelTab::setDarkTheme(bool dark)
{
    m_dark = dark;
    EditorSetup::applyColors(m_editor, dark);
    m_bar->setDarkTheme(dark);
    m_strip->setDarkTheme(dark);
}

int KernelTab::lineOf(const Mark &mark) const
{
    return int(m_editor->SendScintilla(QsciScintilla::SCI_MARKERLINEFROMHANDLE, mark.handle));
}

// The message as the strip shows it for this text: at the line it is on now, without nvcc's work folder.
Diagnostic KernelTab::inThisText(const Mark &mark) const
{
    Diagnostic d = mark.diagnostic;
    d.file.clear();
    if (const int line = lineOf(mark); line >= 0)
        d.line = line + 1;
    return d;
}

void KernelTab::removeMarks()
{
    for (int marker : {EditorSetup::noteMarker, EditorSetup::warningMarker, EditorSetup::errorMarker})
        m_editor->markerDeleteAll(marker);
    const long length = m_editor->SendScintilla(QsciScintilla::SCI_GETLENGTH);
    for (int indicator : {EditorSetup::noteIndicator, EditorSetup::warningIndicator, EditorSetup::errorIndicator}) {
        m_editor->SendScintilla(QsciScintilla::SCI_SETINDICATORCURRENT, indicator);
        m_editor->SendScintilla(QsciScintilla::SCI_INDICATORCLEARRANGE, 0UL, length);
    }
    m_editor->clearAnnotations();
    m_marks.clear();
    m_navMark = -1;
}

// Annotations are drawn from the markers' current lines, so edits above a message move it along.
void KernelTab::renderAnnotations()
{
    m_renderPending = false;
    m_editor->clearAnnotations();
    QMap<int, QList<QsciStyledText>> byLine;
    for (const Mark &m : std::as_const(m_marks)) {
        const int line = lineOf(m);
        if (m.stale || line < 0)
            continue;
        QList<QsciStyledText> &texts = byLine[line];
        const QString text = DiagnosticFormat::headline(m.diagnostic);
        texts << QsciStyledText(texts.isEmpty() ? text : u'\n' + text,
                                EditorSetup::annotationStyleFor(m.diagnostic.severity));
    }
    for (auto it = byLine.cbegin(); it != byLine.cend(); ++it)
        m_editor->annotate(it.key(), it.value());
}

// Editing a line with a message makes the message stale: its annotation goes (it would describe text that
// is no longer there), its marker stays until the next compile. Scintilla must not be changed inside its
// modification notice, so the annotations are redrawn a moment later.
void KernelTab::markEdited(int position)
{
    if (m_marks.isEmpty())
        return;
    const int line = int(m_editor->SendScintilla(QsciScintilla::SCI_LINEFROMPOSITION, position));
    bool changed = false;
    for (Mark &m : m_marks) {
        if (!m.stale && lineOf(m) == line) {
            m.stale = true;
            changed = true;
        }
    }
    if (changed && !m_renderPending) {
        m_renderPending = true;
        QMetaObject::invokeMethod(this, &KernelTab::renderAnnotations, Qt::QueuedConnection);
    }
}

void KernelTab::showLineMessage(int line)
{
    const Mark *best = nullptr;
    for (const Mark &m : std::as_const(m_marks))
        if (lineOf(m) == line && (!best || m.diagnostic.severity < best->diagnostic.severity))
            best = &m;
    if (best)
        m_strip->showMessage(inThisText(*best));
}

void KernelTab::updateBar()
{
    m_bar->setReference(m_reference);
    m_bar->setVisible(isReadOnly());
}

} // namespace kforge
