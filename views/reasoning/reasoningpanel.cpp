#include "views/reasoning/reasoningpanel.h"
#include "core/optimizer/roundrunner.h"
#include "core/session/sessionhistory.h"
#include "core/session/sessionstore.h"
#include "views/reasoning/reasoningentriesmodel.h"
#include "views/variants/variantselection.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace kforge {

namespace {

struct Split {
    QString answer;
    QString thinking;
};

// <think> blocks belong to the reasoning section; an unclosed one (still streaming) runs to the end.
Split splitThinking(const QString &text)
{
    static const QLatin1String open("<think>"), close("</think>");
    Split s;
    qsizetype pos = 0;
    while (pos < text.size()) {
        const qsizetype start = text.indexOf(open, pos);
        if (start < 0) {
            s.answer += QStringView(text).mid(pos);
            break;
        }
        s.answer += QStringView(text).mid(pos, start - pos);
        const qsizetype end = text.indexOf(close, start + open.size());
        const qsizetype bodyEnd = end < 0 ? text.size() : end;
        if (!s.thinking.isEmpty())
            s.thinking += QLatin1String("\n\n");
        s.thinking += QStringView(text).mid(start + open.size(), bodyEnd - start - open.size()).trimmed();
        pos = end < 0 ? text.size() : end + close.size();
    }
    return s;
}

bool atBottom(const QTextBrowser *b)
{
    const QScrollBar *bar = b->verticalScrollBar();
    return bar->value() >= bar->maximum() - 4;
}

} // namespace

ReasoningPanel::ReasoningPanel(SessionStore *store, VariantSelection *selection, RoundRunner *runner, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_selection(selection)
    , m_runner(runner)
    , m_history(SessionHistoryWatch::of(store))
    , m_model(new ReasoningEntriesModel(this))
{
    m_entries = new QComboBox(this);
    m_entries->setModel(m_model);
    m_entries->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_entries->setMinimumContentsLength(12); // the row must fit the default layout's column next to the editor
    if (auto *list = qobject_cast<QListView *>(m_entries->view()))
        list->setUniformItemSizes(true); // a session's thousands of answers are laid out without measuring each
    m_entries->setPlaceholderText(tr("No answer yet"));
    m_entries->setToolTip(tr("Every answer of the session: the rounds' answers, their repairs and the questions about "
                             "pairs, oldest first"));
    m_follow = new QCheckBox(tr("Follow live"), this);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Show each new answer as it starts streaming"));
    m_whole = new QCheckBox(tr("Whole answer"), this);
    m_whole->setToolTip(
        tr("Show the answer as the model wrote it, code included, instead of the parsed analysis and design"));
    m_promptButton = new QPushButton(tr("Show Prompt"), this);
    m_promptButton->setToolTip(tr("The exact prompt this answer was given"));
    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_entries, 1);
    top->addWidget(m_follow);
    top->addWidget(m_whole);
    top->addWidget(m_promptButton);

    m_header = new QLabel(this);
    m_header->setTextFormat(Qt::RichText);
    m_header->setWordWrap(true);

    m_reasoningToggle = new QToolButton(this);
    m_reasoningToggle->setCheckable(true);
    m_reasoningToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_reasoningToggle->setArrowType(Qt::RightArrow);
    m_reasoningToggle->setAutoRaise(true);
    m_reasoning = new QTextBrowser(this);
    m_reasoning->setObjectName(QStringLiteral("reasoningText"));
    m_reasoning->setVisible(false);
    updateReasoningColour();
    m_answer = new QTextBrowser(this);
    m_answer->setOpenExternalLinks(true);
    m_answer->setPlaceholderText(tr("The model's analysis and design appear here while a round streams, or when you "
                                    "select a variant."));

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_reasoning);
    splitter->addWidget(m_answer);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(top);
    layout->addWidget(m_header);
    layout->addWidget(m_reasoningToggle, 0, Qt::AlignLeft);
    layout->addWidget(splitter, 1);

    m_renderTimer = new QTimer(this);
    m_renderTimer->setSingleShot(true);
    m_renderTimer->setInterval(150);
    connect(m_renderTimer, &QTimer::timeout, this, &ReasoningPanel::render);

    connect(m_reasoningToggle, &QToolButton::toggled, this, &ReasoningPanel::setReasoningExpanded);
    connect(m_whole, &QCheckBox::toggled, this, &ReasoningPanel::render);
    connect(m_promptButton, &QPushButton::clicked, this, &ReasoningPanel::showPrompt);
    connect(m_entries, &QComboBox::activated, this, &ReasoningPanel::onComboActivated);
    connect(m_follow, &QCheckBox::toggled, this, [this](bool on) {
        if (!on)
            return;
        // Catch up with the newest answer still streaming.
        for (int row = m_model->rowCount() - 1; row >= 0; --row)
            if (m_model->entry(row)->live) {
                showResponse(m_model->entry(row)->responseId);
                break;
            }
    });
    connect(m_header, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link.startsWith(QLatin1String("variant:")) && m_selection)
            m_selection->setCurrent(link.mid(8).toLongLong());
        else if (link == QLatin1String("prompt:"))
            showPrompt();
    });
    if (m_selection)
        connect(m_selection, &VariantSelection::currentChanged, this, [this](qint64 id) {
            if (!id || id == m_shownVariant)
                return;
            // The user chose a variant: stop following the round, show theirs.
            m_follow->setChecked(false);
            showVariant(id);
        });
    if (m_store) {
        auto reset = [this] {
            m_model->clear();
            m_shown = 0;
            m_shownVariant = 0;
            render();
            updatePlaceholder();
        };
        connect(m_store, &SessionStore::opened, this, reset);
        connect(m_store, &SessionStore::closed, this, reset);
        connect(m_store, &SessionStore::variantChanged, this, [this](qint64 id) {
            if (id == m_shownVariant)
                scheduleRender();
        });
    }
    if (m_runner) {
        connect(m_runner, &RoundRunner::requestStarted, this, &ReasoningPanel::onRequestStarted);
        connect(m_runner, &RoundRunner::textDelta, this, &ReasoningPanel::onTextDelta);
        connect(m_runner, &RoundRunner::reasoningDelta, this, &ReasoningPanel::onReasoningDelta);
        connect(m_runner, &RoundRunner::responseFinished, this,
                [this](qint64 responseId, qint64 variantId, const ParsedResponse &) {
                    onResponseFinished(responseId, variantId);
                });
    }
    if (m_history) // an event of its own: Round Control's share of a large history is delivered in another
        connect(m_history, &SessionHistoryWatch::changed, this,
                [this] { QTimer::singleShot(0, this, &ReasoningPanel::listHistory); });
    setReasoningExpanded(false);
    listHistory();
    render();
}

ReasoningPanel::~ReasoningPanel() = default;

void ReasoningPanel::updateReasoningColour()
{
    // The reasoning is quieter than the answer: its text two thirds of the way from the background to the text
    // colour. palette(mid) did that in the light theme, but the dark one's mid is its background.
    const QColor text = palette().color(QPalette::Text);
    const QColor base = palette().color(QPalette::Base);
    const auto mix = [](int a, int b) { return (a + 2 * b) / 3; };
    const QColor muted(mix(base.red(), text.red()), mix(base.green(), text.green()), mix(base.blue(), text.blue()));
    m_reasoning->setStyleSheet(QStringLiteral("QTextBrowser { color: %1; }").arg(muted.name()));
}

void ReasoningPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_reasoning && m_promptButton) {
        updateReasoningColour();
        m_header->clear(); // its links take the palette's link colour when their text is set
        updateHeader();
        // So do the answer's (Markdown): set again where the reader was in it.
        const int scroll = m_answer->verticalScrollBar()->value();
        render();
        m_answer->verticalScrollBar()->setValue(scroll);
    }
}

QString ReasoningPanel::titleOf(qint64 promptId, qint64 responseId) const
{
    const auto p = m_store ? m_store->exchanges().prompt(promptId) : std::nullopt;
    if (!p)
        return tr("Answer %1").arg(responseId);
    if (p->kind == QLatin1String("compare") && p->exemplarIds.size() == 2)
        return tr("Why #%1 beats #%2").arg(p->exemplarIds[0]).arg(p->exemplarIds[1]);
    const int round = p->roundId ? m_store->rounds().find(p->roundId).value_or(RoundRecord{}).number : 0;
    if (p->kind == QLatin1String("repair"))
        return p->exemplarIds.isEmpty() ? tr("Round %1 · repair").arg(round)
                                        : tr("Round %1 · repair of #%2").arg(round).arg(p->exemplarIds.constFirst());
    // The position of this answer among the round's answers (a round may send each candidate its own prompt).
    int n = 0;
    bool found = false;
    const QList<PromptRecord> prompts = p->roundId ? m_store->exchanges().prompts(p->roundId) : QList<PromptRecord>{*p};
    for (const PromptRecord &q : prompts) {
        if (q.kind != p->kind)
            continue;
        for (const ResponseRecord &r : m_store->exchanges().responses(q.id)) {
            ++n;
            found = r.id == responseId;
            if (found)
                break;
        }
        if (found)
            break;
    }
    return round ? tr("Round %1 · answer %2").arg(round).arg(n) : tr("Answer %1").arg(n);
}

QString ReasoningPanel::titleOf(const HistoryAnswer &a)
{
    if (a.kind == QLatin1String("compare") && a.exemplarIds.size() == 2)
        return tr("Why #%1 beats #%2").arg(a.exemplarIds[0]).arg(a.exemplarIds[1]);
    if (a.kind == QLatin1String("repair"))
        return a.exemplarIds.isEmpty()
                   ? tr("Round %1 · repair").arg(a.roundNumber)
                   : tr("Round %1 · repair of #%2").arg(a.roundNumber).arg(a.exemplarIds.constFirst());
    return a.roundNumber ? tr("Round %1 · answer %2").arg(a.roundNumber).arg(a.position) : tr("Answer %1").arg(a.position);
}

void ReasoningPanel::listHistory()
{
    if (!m_history || !m_history->isCurrent())
        return;
    QList<ReasoningEntry> entries;
    entries.reserve(m_history->history().answers.size());
    for (const HistoryAnswer &a : m_history->history().answers) {
        ReasoningEntry e;
        e.responseId = a.responseId;
        e.promptId = a.promptId;
        e.variantId = a.variantId;
        e.kind = a.kind;
        e.title = titleOf(a);
        e.finish = a.finishStatus;
        e.error = a.error;
        e.loaded = false;
        e.characters = a.characters;
        // One still streaming in the file but not in this process was cut off when its process ended.
        e.live = false;
        entries << e;
    }
    m_updatingCombo = true;
    m_model->merge(entries);
    m_entries->setCurrentIndex(m_shown ? m_model->rowOf(m_shown) : -1);
    m_updatingCombo = false;
    updatePlaceholder();
}

void ReasoningPanel::updatePlaceholder()
{
    const int n = m_model->rowCount();
    m_entries->setPlaceholderText(n ? tr("Answers in this session: %1 — choose one").arg(n) : tr("No answer yet"));
}

ReasoningEntry ReasoningPanel::entryFromStore(qint64 responseId) const
{
    ReasoningEntry e;
    e.responseId = responseId;
    const auto r = m_store ? m_store->exchanges().response(responseId) : std::nullopt;
    if (!r)
        return e;
    e.promptId = r->promptId;
    e.text = r->rawText;
    e.reasoning = r->reasoningText;
    e.finish = r->finishStatus;
    e.error = r->error;
    e.live = r->finishStatus == QLatin1String("streaming") && m_runner;
    if (const auto p = m_store->exchanges().prompt(r->promptId))
        e.kind = p->kind;
    e.title = titleOf(r->promptId, responseId);
    return e;
}

void ReasoningPanel::onRequestStarted(qint64 responseId)
{
    ReasoningEntry e = entryFromStore(responseId);
    e.live = true;
    e.text.clear();
    e.reasoning.clear();
    m_model->upsert(e, m_shown);
    // A question the user just asked is shown at once; round answers when following.
    if (e.kind == QLatin1String("compare") || m_follow->isChecked())
        showResponse(responseId);
}

void ReasoningPanel::onTextDelta(qint64 responseId, const QString &text)
{
    if (ReasoningEntry *e = m_model->find(responseId)) {
        e->text += text;
        if (responseId == m_shown)
            scheduleRender();
    }
}

void ReasoningPanel::onReasoningDelta(qint64 responseId, const QString &text)
{
    if (ReasoningEntry *e = m_model->find(responseId)) {
        e->reasoning += text;
        if (responseId == m_shown)
            scheduleRender();
    }
}

void ReasoningPanel::onResponseFinished(qint64 responseId, qint64 variantId)
{
    ReasoningEntry *e = m_model->find(responseId);
    if (!e)
        return;
    const ReasoningEntry stored = entryFromStore(responseId);
    e->live = false;
    e->variantId = variantId;
    e->finish = stored.finish;
    e->error = stored.error;
    // The store holds the answer as assembled by the client, with the reasoning the parser found.
    if (!stored.text.isEmpty())
        e->text = stored.text;
    if (!stored.reasoning.isEmpty())
        e->reasoning = stored.reasoning;
    m_model->touch(responseId);
    if (responseId == m_shown) {
        m_shownVariant = variantId;
        scheduleRender();
    }
}

bool ReasoningPanel::showResponse(qint64 responseId)
{
    if (const ReasoningEntry *listed = m_model->find(responseId); !listed || !listed->loaded) {
        ReasoningEntry e = entryFromStore(responseId);
        if (!e.promptId)
            return false;
        if (listed && listed->variantId)
            e.variantId = listed->variantId;
        else if (m_store)
            for (const auto &v : m_store->population().variants())
                if (v.responseId == responseId) {
                    e.variantId = v.id;
                    break;
                }
        m_model->upsert(e, m_shown);
        updatePlaceholder();
    }
    m_shown = responseId;
    m_shownVariant = m_model->find(responseId)->variantId;
    m_updatingCombo = true;
    m_entries->setCurrentIndex(m_model->rowOf(responseId));
    m_updatingCombo = false;
    render();
    return true;
}

void ReasoningPanel::showVariant(qint64 variantId)
{
    const Variant *v = m_store ? m_store->population().find(variantId) : nullptr;
    if (!v)
        return;
    if (v->responseId && showResponse(v->responseId)) {
        m_shownVariant = variantId;
        render();
        return;
    }
    m_shown = 0;
    m_shownVariant = variantId;
    m_updatingCombo = true;
    m_entries->setCurrentIndex(-1);
    m_updatingCombo = false;
    render();
}

void ReasoningPanel::onComboActivated(int row)
{
    if (m_updatingCombo)
        return;
    if (const ReasoningEntry *e = m_model->entry(row)) {
        m_follow->setChecked(e->live && m_follow->isChecked());
        showResponse(e->responseId);
    }
}

void ReasoningPanel::setFollowLive(bool on)
{
    m_follow->setChecked(on);
}

bool ReasoningPanel::followsLive() const
{
    return m_follow->isChecked();
}

void ReasoningPanel::setReasoningExpanded(bool on)
{
    if (m_reasoningToggle->isChecked() != on)
        m_reasoningToggle->setChecked(on); // re-enters through toggled()
    m_reasoningToggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    m_reasoning->setVisible(on);
}

bool ReasoningPanel::isReasoningExpanded() const
{
    return m_reasoningToggle->isChecked();
}

QString ReasoningPanel::promptText() const
{
    const ReasoningEntry *e = m_shown ? m_model->entry(m_model->rowOf(m_shown)) : nullptr;
    qint64 promptId = e ? e->promptId : 0;
    if (!promptId && m_store && m_shownVariant)
        if (const Variant *v = m_store->population().find(m_shownVariant))
            promptId = v->promptId;
    if (!promptId || !m_store)
        return {};
    const auto p = m_store->exchanges().prompt(promptId);
    return p ? p->rendered : QString();
}

QDialog *ReasoningPanel::showPrompt()
{
    const QString text = promptText();
    if (text.isEmpty())
        return nullptr;
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Prompt"));
    auto *edit = new QPlainTextEdit(dialog);
    edit->setReadOnly(true);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setPlainText(text);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QPushButton *copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, dialog, [text] { QApplication::clipboard()->setText(text); });
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(edit);
    layout->addWidget(buttons);
    dialog->resize(760, 640);
    dialog->show();
    return dialog;
}

void ReasoningPanel::scheduleRender()
{
    if (!m_renderTimer->isActive())
        m_renderTimer->start();
}

void ReasoningPanel::renderNow()
{
    render();
}

void ReasoningPanel::updateHeader()
{
    QStringList parts;
    const ReasoningEntry *e = m_shown ? m_model->entry(m_model->rowOf(m_shown)) : nullptr;
    if (e) {
        parts << QStringLiteral("<b>%1</b>").arg(e->title.toHtmlEscaped());
        parts << ReasoningEntriesModel::stateText(*e).toHtmlEscaped();
    }
    if (m_shownVariant) {
        const Variant *v = m_store ? m_store->population().find(m_shownVariant) : nullptr;
        QString link =
            QStringLiteral("<a href=\"variant:%1\">%2</a>").arg(m_shownVariant).arg(tr("variant #%1").arg(m_shownVariant));
        if (v && !v->label.isEmpty())
            link += QLatin1Char(' ') + v->label.toHtmlEscaped();
        parts << link;
    }
    if (!promptText().isEmpty())
        parts << QStringLiteral("<a href=\"prompt:\">%1</a>").arg(tr("prompt"));
    m_header->setText(parts.join(QStringLiteral(" · ")));
    m_header->setVisible(!parts.isEmpty());
    m_promptButton->setEnabled(!promptText().isEmpty());
}

void ReasoningPanel::render()
{
    m_renderTimer->stop();
    QElapsedTimer clock;
    clock.start();
    ++m_renders;
    const ReasoningEntry *e = m_shown ? m_model->entry(m_model->rowOf(m_shown)) : nullptr;
    QString answer, thinking;
    if (e) {
        const Split s = splitThinking(e->text);
        answer = s.answer;
        thinking = e->reasoning;
        if (!s.thinking.isEmpty())
            thinking += (thinking.isEmpty() ? QString() : QStringLiteral("\n\n")) + s.thinking;
        if (!e->error.isEmpty() && !e->live)
            answer += QStringLiteral("\n\n> ") + tr("**The answer failed:** %1").arg(e->error);
    }
    // A finished answer that became a variant shows what the parser kept, unless the whole answer is asked for.
    if (m_store && m_shownVariant && (!e || (!e->live && !m_whole->isChecked()))) {
        const VariantTexts t = m_store->variants().texts(m_shownVariant);
        QString md;
        if (!t.analysis.trimmed().isEmpty())
            md += QStringLiteral("## ") + tr("Analysis") + QStringLiteral("\n\n") + t.analysis.trimmed()
                  + QStringLiteral("\n\n");
        if (!t.design.trimmed().isEmpty())
            md += QStringLiteral("## ") + tr("Design") + QStringLiteral("\n\n") + t.design.trimmed() + QStringLiteral("\n");
        if (!md.isEmpty())
            answer = md;
        else if (!e)
            answer = tr("*Variant #%1 has no analysis or design: it was not written by the model.*").arg(m_shownVariant);
    }
    if (m_store)
        m_whole->setEnabled(m_shownVariant && e);
    const bool followAnswer = atBottom(m_answer);
    const bool followThinking = atBottom(m_reasoning);
    m_answer->setMarkdown(answer);
    m_reasoning->setPlainText(thinking);
    if (e && e->live) {
        if (followAnswer)
            m_answer->verticalScrollBar()->setValue(m_answer->verticalScrollBar()->maximum());
        if (followThinking)
            m_reasoning->verticalScrollBar()->setValue(m_reasoning->verticalScrollBar()->maximum());
    }
    m_reasoningToggle->setText(thinking.isEmpty() ? tr("Reasoning (none)")
                                                  : tr("Reasoning (%n character(s))", nullptr, int(thinking.size())));
    m_reasoningToggle->setEnabled(!thinking.isEmpty());
    if (e)
        m_model->touch(e->responseId);
    updateHeader();
    // Long answers render slower: stretch the interval so rendering never takes more than a fifth of the time.
    m_renderTimer->setInterval(std::clamp(int(clock.elapsed()) * 5, 150, 1000));
}

QString ReasoningPanel::answerText() const
{
    return m_answer->toPlainText();
}

QString ReasoningPanel::reasoningText() const
{
    return m_reasoning->toPlainText();
}

QString ReasoningPanel::headerText() const
{
    QTextDocument doc;
    doc.setHtml(m_header->text());
    return doc.toPlainText();
}

} // namespace kforge
