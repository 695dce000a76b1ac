#include "views/editor/heatgutter.h"

#include "core/sourcelevel/stallreason.h"
#include "views/editor/editorsetup.h"
#include "views/editor/heatlinesmodel.h"

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

constexpr int kBuckets = EditorSetup::heatStyleCount;

int bucketOf(double share)
{
    return qBound(0, int(share * 4.0 * (kBuckets - 1) + 0.5), kBuckets - 1);
}

} // namespace

HeatGutter *HeatGutter::of(QsciScintilla *editor)
{
    if (auto *g = editor->findChild<HeatGutter *>(QString(), Qt::FindDirectChildrenOnly))
        return g;
    return new HeatGutter(editor);
}

HeatGutter::HeatGutter(QsciScintilla *editor)
    : QObject(editor)
    , m_editor(editor)
    , m_model(new HeatLinesModel(this))
{
    m_editor->setMarginType(EditorSetup::heatMargin, QsciScintilla::TextMarginRightJustified);
    m_editor->setMarginWidth(EditorSetup::heatMargin, 0);
    m_editor->setMarginSensitivity(EditorSetup::heatMargin, false);
    m_editor->SendScintilla(QsciScintilla::SCI_SETMOUSEDWELLTIME, 400);
    connect(m_editor, &QsciScintilla::SCN_DWELLSTART, this, &HeatGutter::onDwell);
    connect(m_editor, &QsciScintilla::SCN_DWELLEND, this,
            [this] { m_editor->SendScintilla(QsciScintilla::SCI_CALLTIPCANCEL); });
}

void HeatGutter::setHeat(const SourceHeat &heat)
{
    m_model->setHeat(heat);
    paint();
}

void HeatGutter::clear()
{
    setHeat(SourceHeat{});
}

bool HeatGutter::isShown() const
{
    return m_editor->marginWidth(EditorSetup::heatMargin) > 0;
}

void HeatGutter::setDarkTheme(bool dark)
{
    m_dark = dark;
    paint();
}

QString HeatGutter::marginText(int line) const
{
    const LineHeat *l = m_model->heat().at(line);
    if (!l || l->samples <= 0)
        return {};
    const double pct = 100.0 * l->share;
    return pct >= 1.0 ? u"%1%"_s.arg(qRound(pct)) : u"<1%"_s;
}

QString HeatGutter::tipForLine(int line) const
{
    const LineHeat *l = m_model->heat().at(line);
    if (!l || (l->samples <= 0 && l->executed < 0))
        return {};
    if (l->samples <= 0) // executed (SASS metrics) but never sampled
        return tr("No samples") + u'\n' + l->executionText();
    QStringList parts{
        tr("%1% of samples (%2 of %3)").arg(100.0 * l->share, 0, 'f', 1).arg(l->samples).arg(m_model->heat().totalSamples)};
    qint64 total = 0;
    for (const auto &s : l->stalls)
        total += s.second;
    for (qsizetype i = 0; i < l->stalls.size() && i < 3 && total > 0; ++i)
        parts.append(u"%1%  %2"_s.arg(qRound(100.0 * l->stalls.at(i).second / double(total)), 3)
                         .arg(StallReason::describe(l->stalls.at(i).first)));
    if (l->executed >= 0)
        parts.append(l->executionText());
    return parts.join(u'\n');
}

void HeatGutter::paint()
{
    m_editor->clearMarginText();
    const SourceHeat &heat = m_model->heat();
    if (heat.lines.isEmpty()) {
        m_editor->setMarginWidth(EditorSetup::heatMargin, 0);
        return;
    }
    m_editor->setMarginWidth(EditorSetup::heatMargin, u"0100%"_s);
    const QFont font = m_editor->font();
    for (const LineHeat &l : heat.lines) {
        const QString text = marginText(l.line);
        if (text.isEmpty() || l.line < 1 || l.line > m_editor->lines())
            continue;
        const int b = bucketOf(l.share);
        const QColor paper = HeatLinesModel::heatColor(double(b) / (4.0 * (kBuckets - 1)), m_dark);
        const QColor ink = paper.lightnessF() < 0.5 ? QColor(Qt::white) : QColor(Qt::black);
        const QsciStyle style(EditorSetup::firstHeatStyle + b, u"heat %1"_s.arg(b), ink, paper, font);
        m_editor->setMarginText(l.line - 1, text, style);
    }
}

void HeatGutter::onDwell(int position, int x, int y)
{
    Q_UNUSED(x);
    // Over the margin Scintilla reports no text position: take the line under the pointer.
    int line = -1;
    if (position >= 0) {
        line = int(m_editor->SendScintilla(QsciScintilla::SCI_LINEFROMPOSITION, position));
    } else {
        const long height = m_editor->SendScintilla(QsciScintilla::SCI_TEXTHEIGHT, 0);
        const long first = m_editor->SendScintilla(QsciScintilla::SCI_GETFIRSTVISIBLELINE);
        if (height > 0)
            line = int(m_editor->SendScintilla(QsciScintilla::SCI_DOCLINEFROMVISIBLE, first + y / height));
    }
    const QString tip = tipForLine(line + 1);
    if (tip.isEmpty())
        return;
    const long at = m_editor->SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, line);
    m_editor->SendScintilla(QsciScintilla::SCI_CALLTIPSHOW, at, tip.toUtf8().constData());
}

} // namespace kforge
