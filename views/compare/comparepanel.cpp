#include "views/compare/comparepanel.h"
#include "core/eval/measureformat.h"
#include "core/eval/measurementfigures.h"
#include "core/optimizer/roundrunner.h"
#include "core/session/sessionhistory.h"
#include "core/session/sessionstore.h"
#include "views/compare/comparemetricsmodel.h"
#include "views/compare/heatcompareview.h"
#include "views/compare/kernellistmodel.h"
#include "views/variants/measurementtext.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsmodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QMap>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

namespace kforge {

namespace {

QTableView *makeTable(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setAlternatingRowColors(true);
    return view;
}

QString variantTextsMarkdown(const VariantTexts &t, const QString &who)
{
    if (t.analysis.trimmed().isEmpty() && t.design.trimmed().isEmpty())
        return ComparePanel::tr("*No analysis is stored for %1: the model did not write it, or it was written by hand.*")
            .arg(who);
    QString md;
    if (!t.analysis.trimmed().isEmpty())
        md += QStringLiteral("### ") + ComparePanel::tr("Analysis") + QStringLiteral("\n\n") + t.analysis.trimmed()
              + QStringLiteral("\n\n");
    if (!t.design.trimmed().isEmpty())
        md += QStringLiteral("### ") + ComparePanel::tr("Design") + QStringLiteral("\n\n") + t.design.trimmed()
              + QStringLiteral("\n");
    return md;
}

} // namespace

ComparePanel::ComparePanel(SessionStore *store, VariantSelection *selection, RoundRunner *runner, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_selection(selection)
    , m_runner(runner)
    , m_history(SessionHistoryWatch::of(store))
    , m_metrics(new CompareMetricsModel(this))
    , m_kernelsA(new KernelListModel(this))
    , m_kernelsB(new KernelListModel(this))
{
    m_title = new QLabel(this);
    m_title->setTextFormat(Qt::RichText);
    m_title->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_title->setWordWrap(true);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // the buttons keep their width
    m_swap = new QToolButton(this);
    m_swap->setText(tr("Swap"));
    m_swap->setToolTip(tr("Swap A and B"));
    m_ask = new QPushButton(this);
    m_ask->setObjectName(QStringLiteral("ask"));
    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_title, 1);
    top->addWidget(m_swap);
    top->addWidget(m_ask);

    m_headline = new QLabel(this);
    m_headline->setObjectName(QStringLiteral("compareHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headline->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // wraps to the dock, never widens it
    m_notice = new QLabel(this);
    m_notice->setWordWrap(true);
    m_notice->setStyleSheet(QStringLiteral("color: #b9770e;"));
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    m_metricsView = makeTable(m_metrics, this);
    for (int column : {CompareMetricsModel::Metric, CompareMetricsModel::A, CompareMetricsModel::B})
        m_metricsView->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);

    auto *kernels = new QWidget(this);
    auto *kernelsLayout = new QHBoxLayout(kernels);
    kernelsLayout->setContentsMargins(0, 0, 0, 0);
    for (auto [model, title] : {std::pair{m_kernelsA, &m_kernelsTitleA}, std::pair{m_kernelsB, &m_kernelsTitleB}}) {
        auto *box = new QWidget(kernels);
        auto *l = new QVBoxLayout(box);
        l->setContentsMargins(0, 0, 0, 0);
        *title = new QLabel(box);
        l->addWidget(*title);
        QTableView *view = makeTable(model, box);
        view->horizontalHeader()->resizeSection(KernelListModel::Name,
                                                16 * view->fontMetrics().horizontalAdvance(QLatin1Char('M')));
        l->addWidget(view, 1);
        kernelsLayout->addWidget(box, 1);
    }

    m_texts = new QTabWidget(this);
    m_analysisA = new QTextBrowser(m_texts);
    m_analysisB = new QTextBrowser(m_texts);
    m_answers = new QTextBrowser(m_texts);
    m_texts->addTab(m_answers, tr("Why A beats B"));
    m_texts->addTab(m_analysisA, tr("A's analysis"));
    m_texts->addTab(m_analysisB, tr("B's analysis"));
    m_heat = new HeatCompareView(m_texts);
    m_texts->addTab(m_heat, tr("Source heat"));
    connect(m_heat, &HeatCompareView::profileRequested, this, &ComparePanel::profileRequested);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_metricsView);
    splitter->addWidget(kernels);
    splitter->addWidget(m_texts);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 3);

    auto *page = new QWidget(this);
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addLayout(top);
    pageLayout->addWidget(m_headline);
    pageLayout->addWidget(m_notice);
    pageLayout->addWidget(m_status);
    pageLayout->addWidget(splitter, 1);

    m_empty = new QLabel(tr("Select two variants in the Variants panel and choose “Compare the Two Selected”."), this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(page);
    // The session's stored answers about pairs, found without remembering which two variants were asked about.
    m_storedRow = new QWidget(this);
    m_stored = new QComboBox(m_storedRow);
    m_stored->setObjectName(QStringLiteral("storedAnalyses"));
    m_stored->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_stored->setMinimumContentsLength(16);
    m_stored->setToolTip(tr("Pairs the model was asked about in this session: choose one to read its answers"));
    auto *storedLabel = new QLabel(tr("Stored answers:"), m_storedRow);
    storedLabel->setBuddy(m_stored);
    auto *storedLayout = new QHBoxLayout(m_storedRow);
    storedLayout->setContentsMargins(0, 0, 0, 0);
    storedLayout->addWidget(storedLabel);
    storedLayout->addWidget(m_stored, 1);
    m_storedRow->hide();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_storedRow);
    layout->addWidget(m_stack, 1);
    connect(m_stored, &QComboBox::activated, this, &ComparePanel::showStored);
    if (m_history)
        connect(m_history, &SessionHistoryWatch::changed, this, &ComparePanel::updateStored);

    connect(m_swap, &QToolButton::clicked, this, [this] {
        if (m_selection)
            m_selection->setComparePair(m_b, m_a);
        else
            setPair(m_b, m_a);
    });
    connect(m_ask, &QPushButton::clicked, this, &ComparePanel::askWhy);
    if (m_selection) {
        connect(m_selection, &VariantSelection::comparePairChanged, this, &ComparePanel::setPair);
        const auto [a, b] = m_selection->comparePair();
        m_a = a;
        m_b = b;
    }
    if (m_store) {
        connect(m_store, &SessionStore::closed, this, [this] { setPair(0, 0); });
        connect(m_store, &SessionStore::opened, this, [this] { setPair(0, 0); });
        connect(m_store, &SessionStore::evaluationAdded, this, [this](qint64 variantId, qint64) {
            if (variantId == m_a || variantId == m_b)
                reload();
        });
        connect(m_store, &SessionStore::variantChanged, this, [this](qint64 variantId) {
            if (variantId == m_a || variantId == m_b)
                updateHeader();
        });
        connect(m_store, &SessionStore::pairAnalysisChanged, this, [this] { updatePairAnswers(); });
    }
    if (m_runner) {
        connect(m_runner, &RoundRunner::pairAnswered, this, &ComparePanel::onPairAnswered);
        connect(m_runner, &RoundRunner::stateChanged, this, &ComparePanel::updateAskButton);
    }
    reload();
    updateStored();
}

ComparePanel::~ComparePanel() = default;

void ComparePanel::updateStored()
{
    // One item per pair as asked (faster first), the newest pair first.
    QMap<std::pair<qint64, qint64>, std::pair<int, qint64>> pairs; // pair -> answers, newest id
    if (m_history && m_history->isCurrent())
        for (const PairAnalysis &p : m_history->history().analyses) {
            auto &[count, newest] = pairs[{p.variantA, p.variantB}];
            ++count;
            newest = std::max(newest, p.id);
        }
    QList<std::pair<std::pair<qint64, qint64>, std::pair<int, qint64>>> items;
    for (auto it = pairs.cbegin(); it != pairs.cend(); ++it)
        items.append({it.key(), it.value()});
    std::sort(items.begin(), items.end(), [](const auto &x, const auto &y) { return x.second.second > y.second.second; });
    m_stored->clear();
    for (const auto &[pair, info] : items)
        m_stored->addItem(tr("Why #%1 beats #%2 · answers: %3").arg(pair.first).arg(pair.second).arg(info.first),
                          QVariantList{pair.first, pair.second});
    m_stored->setCurrentIndex(m_stored->findData(QVariantList{m_a, m_b}));
    m_stored->setPlaceholderText(tr("Pairs with stored answers: %1 — choose one").arg(items.size()));
    m_storedRow->setVisible(!items.isEmpty());
    m_empty->setText(items.isEmpty()
                         ? tr("Select two variants in the Variants panel and choose “Compare the Two Selected”.")
                         : tr("Select two variants in the Variants panel and choose “Compare the Two Selected”, or "
                              "choose a stored answer above."));
}

void ComparePanel::showStored(int index)
{
    const QVariantList pair = m_stored->itemData(index).toList();
    if (pair.size() != 2)
        return;
    const qint64 a = pair[0].toLongLong(), b = pair[1].toLongLong();
    if (m_selection)
        m_selection->setComparePair(a, b);
    else
        setPair(a, b);
    m_texts->setCurrentWidget(m_answers);
}

void ComparePanel::setPair(qint64 a, qint64 b)
{
    if (a == m_a && b == m_b && m_stack->currentIndex() == (a && b ? 1 : 0))
        return;
    m_a = a;
    m_b = b;
    m_pending = 0;
    m_status->clear();
    m_stored->setCurrentIndex(m_stored->findData(QVariantList{a, b})); // the stored pair shown, if it is one
    reload();
}

QString ComparePanel::describe(qint64 id) const
{
    const Variant *v = m_store ? m_store->population().find(id) : nullptr;
    if (!v)
        return tr("#%1").arg(id);
    QString s = QStringLiteral("#%1").arg(id);
    if (!v->label.isEmpty())
        s += QLatin1Char(' ') + v->label.toHtmlEscaped();
    else if (v->origin == VariantOrigin::Reference)
        s += QLatin1Char(' ') + tr("reference");
    if (v->eval.speedup)
        s += QStringLiteral(" (%1×)").arg(formatMeasure(*v->eval.speedup));
    else
        s += QStringLiteral(" (%1)").arg(VariantsModel::statusText(*v).toHtmlEscaped());
    return s;
}

void ComparePanel::updateHeader()
{
    m_title->setText(tr("<b>A</b> %1 &nbsp;against&nbsp; <b>B</b> %2").arg(describe(m_a), describe(m_b)));
    updateAskButton();
}

std::pair<qint64, qint64> ComparePanel::askedPair() const
{
    const Variant *a = m_store ? m_store->population().find(m_a) : nullptr;
    const Variant *b = m_store ? m_store->population().find(m_b) : nullptr;
    if (a && b && a->eval.speedup && b->eval.speedup && *b->eval.speedup > *a->eval.speedup)
        return {m_b, m_a};
    return {m_a, m_b};
}

void ComparePanel::updateAskButton()
{
    const auto [fast, slow] = askedPair();
    m_ask->setText(tr("Ask the model why #%1 is faster than #%2").arg(fast).arg(slow));
    QString why;
    if (!m_runner)
        why = tr("No model connection: the workbench has no round runner.");
    else if (!m_store || !m_store->population().contains(m_a) || !m_store->population().contains(m_b))
        why = tr("Choose two variants of the open session.");
    else if (m_pending)
        why = tr("The model is answering.");
    m_ask->setEnabled(why.isEmpty());
    m_ask->setToolTip(why.isEmpty() ? tr("Sends both sources and both profiles to the model; the answer streams into the "
                                         "Reasoning panel and is stored with the pair.")
                                    : why);
}

void ComparePanel::reload()
{
    const bool valid = m_store && m_store->isOpen() && m_a && m_b && m_store->population().contains(m_a)
                       && m_store->population().contains(m_b);
    m_stack->setCurrentIndex(valid ? 1 : 0);
    if (!valid) {
        m_metrics->clear();
        m_kernelsA->clear();
        m_kernelsB->clear();
        m_analysisA->clear();
        m_analysisB->clear();
        m_answers->clear();
        m_heat->clear();
        m_notice->clear();
        m_headline->clear();
        updateAskButton();
        return;
    }
    // Two stored results and two texts: small reads, done here so the panel is complete when it shows.
    auto measure = [this](qint64 id) {
        const Variant *v = m_store->population().find(id);
        if (v && v->hasEvaluation())
            if (const auto e = m_store->evaluations().find(v->eval.id))
                return e->figures();
        MeasurementFigures m;
        const QString why = v ? tr("not evaluated yet (%1)").arg(VariantsModel::statusText(*v)) : tr("unknown variant");
        m.timingProblem = m.traceProblem = m.metricsProblem = why;
        return m;
    };
    const MeasurementFigures a = measure(m_a);
    const MeasurementFigures b = measure(m_b);
    auto heatSide = [this](qint64 id, const QString &letter) {
        HeatCompareView::Side side{QStringLiteral("%1 (#%2)").arg(letter).arg(id), {}, m_store->variants().source(id), id};
        const Variant *v = m_store->population().find(id);
        if (v && v->hasEvaluation())
            if (const auto e = m_store->evaluations().find(v->eval.id))
                side.profile = e->measurement().sourceProfile;
        return side;
    };
    m_heat->setPair(heatSide(m_a, QStringLiteral("A")), heatSide(m_b, QStringLiteral("B")));
    m_metrics->setMeasurements(a, b, QStringLiteral("#%1").arg(m_a), QStringLiteral("#%1").arg(m_b));
    updateHeadline();
    m_kernelsA->setKernels(a.kernels, a.traceRuns);
    m_kernelsB->setKernels(b.kernels, b.traceRuns);
    m_kernelsTitleA->setText(a.traceProblem.isEmpty()
                                 ? tr("Kernels of A (#%1)").arg(m_a)
                                 : tr("Kernels of A (#%1): no trace: %2").arg(m_a).arg(a.traceProblem));
    m_kernelsTitleB->setText(b.traceProblem.isEmpty()
                                 ? tr("Kernels of B (#%1)").arg(m_b)
                                 : tr("Kernels of B (#%1): no trace: %2").arg(m_b).arg(b.traceProblem));
    QStringList notes;
    if (!a.metricsProblem.isEmpty())
        notes << tr("A: no hardware metrics: %1").arg(a.metricsProblem);
    if (!b.metricsProblem.isEmpty())
        notes << tr("B: no hardware metrics: %1").arg(b.metricsProblem);
    if (!a.bound.isEmpty() && a.bound == b.bound)
        notes.prepend(tr("Both are %1.").arg(MeasurementText::boundPhrase(a.bound)));
    else if (!a.bound.isEmpty() || !b.bound.isEmpty())
        notes.prepend(
            tr("A is %1; B is %2.").arg(MeasurementText::boundPhrase(a.bound), MeasurementText::boundPhrase(b.bound)));
    m_notice->setText(notes.join(QLatin1Char('\n')));
    m_notice->setVisible(!notes.isEmpty());
    updateAnalyses();
    updateHeader();
    updatePairAnswers();
}

void ComparePanel::updateAnalyses()
{
    m_analysisA->setMarkdown(variantTextsMarkdown(m_store->variants().texts(m_a), QStringLiteral("#%1").arg(m_a)));
    m_analysisB->setMarkdown(variantTextsMarkdown(m_store->variants().texts(m_b), QStringLiteral("#%1").arg(m_b)));
}

void ComparePanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // Markdown's links take the application palette's link colour when the text is set (the light theme's dark
    // blue stayed on the dark one): set again in the palette of the moment.
    if (event->type() != QEvent::PaletteChange || !m_answers || !m_store || !m_store->isOpen() || !m_a || !m_b)
        return;
    const QList<QTextBrowser *> texts{m_analysisA, m_analysisB, m_answers};
    QList<int> scrolled;
    for (QTextBrowser *t : texts)
        scrolled << t->verticalScrollBar()->value();
    updateAnalyses();
    updatePairAnswers();
    for (qsizetype i = 0; i < texts.size(); ++i) // where the reader was
        texts.at(i)->verticalScrollBar()->setValue(scrolled.at(i));
}

void ComparePanel::updateHeadline()
{
    QStringList lines;
    const QString na = QStringLiteral("#%1").arg(m_a), nb = QStringLiteral("#%1").arg(m_b);
    if (const std::optional<TimeRatio> r = m_metrics->timeRatio()) {
        const int time = m_metrics->rowOf(QStringLiteral("time"));
        const QString ta = m_metrics->index(time, CompareMetricsModel::A).data().toString();
        const QString tb = m_metrics->index(time, CompareMetricsModel::B).data().toString();
        const bool aFaster = r->ratio <= 1;
        // In "x× faster" terms of the faster one: the interval of 1/ratio (or of the ratio) turned around.
        const double factor = aFaster ? 1 / r->ratio : r->ratio;
        const double low = aFaster ? 1 / r->high : r->low;
        const double high = aFaster ? 1 / r->low : r->high;
        const QString fast = aFaster ? na : nb, slow = aFaster ? nb : na;
        if (r->withinNoise())
            lines << tr("<b>%1 and %2 take the same time within noise</b>: %3 against %4; the 80% interval of the "
                        "ratio, %5× to %6×, holds 1.")
                         .arg(na, nb, ta, tb, formatMeasure(low), formatMeasure(high));
        else
            lines << tr("<b>%1 is %2× faster than %3</b> (%4 against %5); the 80% interval of the ratio is %6× to %7×, "
                        "so the gap is real.")
                         .arg(fast, formatMeasure(factor), slow, aFaster ? ta : tb, aFaster ? tb : ta,
                              formatMeasure(low), formatMeasure(high));
        if (r->basis == TimeRatio::Basis::Cv)
            lines.last() += QLatin1Char(' ') + tr("(From the coefficients of variation: the results keep no percentiles.)");
    } else {
        lines << tr("The times cannot be compared: both variants need a measured time.");
    }
    QStringList diffs;
    for (int row : m_metrics->largestDifferences(3)) {
        const auto cell = [&](int column) { return m_metrics->index(row, column).data().toString().toHtmlEscaped(); };
        const QString delta = cell(CompareMetricsModel::Delta);
        diffs << (delta.isEmpty() || delta == CompareMetricsModel::tr("differs")
                      ? tr("%1 %2 against %3")
                            .arg(cell(CompareMetricsModel::Metric), cell(CompareMetricsModel::A),
                                 cell(CompareMetricsModel::B))
                      : tr("%1 %2 against %3 (%4)")
                            .arg(cell(CompareMetricsModel::Metric), cell(CompareMetricsModel::A),
                                 cell(CompareMetricsModel::B), delta));
    }
    if (!diffs.isEmpty())
        lines << tr("What differs most: %1.").arg(diffs.join(QStringLiteral("; ")));
    m_headline->setText(lines.join(QStringLiteral("<br>")));
}

QString ComparePanel::headlineText() const
{
    QTextDocument doc;
    doc.setHtml(m_headline->text());
    return doc.toPlainText();
}

void ComparePanel::updatePairAnswers()
{
    if (!m_store || !m_store->isOpen() || !m_a || !m_b) {
        m_answers->clear();
        return;
    }
    QList<PairAnalysis> all = m_store->analyses().pairAnalyses(m_a, m_b) + m_store->analyses().pairAnalyses(m_b, m_a);
    std::sort(all.begin(), all.end(), [](const PairAnalysis &x, const PairAnalysis &y) { return x.id > y.id; });
    if (all.isEmpty()) {
        m_answers->setMarkdown(tr("*No answer about this pair yet. Ask the model with the button above.*"));
        return;
    }
    QString md;
    for (const PairAnalysis &p : std::as_const(all)) {
        md += QStringLiteral("#### ") + tr("#%1 against #%2").arg(p.variantA).arg(p.variantB) + QStringLiteral("\n\n");
        if (!p.question.isEmpty())
            md += QStringLiteral("> ") + p.question.simplified() + QStringLiteral("\n\n");
        if (!p.answer.isEmpty()) {
            md += p.answer.trimmed() + QStringLiteral("\n\n");
        } else if (p.id == m_pending) {
            md += tr("*The model is answering; the text streams into the Reasoning panel.*") + QStringLiteral("\n\n");
        } else {
            QString why;
            if (p.responseId)
                if (const auto r = m_store->exchanges().response(p.responseId))
                    why = r->error;
            md += (why.isEmpty() ? tr("*No answer was stored.*") : tr("*No answer: %1*").arg(why)) + QStringLiteral("\n\n");
        }
        md += QStringLiteral("---\n\n");
    }
    m_answers->setMarkdown(md);
}

qint64 ComparePanel::askWhy()
{
    if (!m_runner) {
        m_status->setText(tr("Cannot ask: the workbench has no connection to a model."));
        return 0;
    }
    const auto [fast, slow] = askedPair();
    const qint64 id = m_runner->askWhyFaster(fast, slow);
    if (!id) {
        m_status->setText(tr("Cannot ask: %1").arg(m_runner->errorString()));
        Q_EMIT errorOccurred(m_runner->errorString());
        return 0;
    }
    m_pending = id;
    m_status->setText(
        tr("Asking the model why #%1 is faster than #%2; the answer streams into the Reasoning panel.").arg(fast).arg(slow));
    m_texts->setCurrentWidget(m_answers);
    updateAskButton();
    updatePairAnswers();
    return id;
}

void ComparePanel::onPairAnswered(qint64 analysisId)
{
    if (analysisId != m_pending)
        return;
    m_pending = 0;
    QString answer, error;
    if (m_store)
        for (const PairAnalysis &p : m_store->analyses().pairAnalyses())
            if (p.id == analysisId) {
                answer = p.answer;
                if (p.responseId)
                    if (const auto r = m_store->exchanges().response(p.responseId))
                        error = r->error;
            }
    m_status->setText(answer.isEmpty() ? tr("The model gave no answer: %1").arg(error.isEmpty() ? tr("empty reply") : error)
                                       : tr("The model answered; the answer is stored with the pair."));
    updateAskButton();
    updatePairAnswers();
}

QString ComparePanel::statusText() const
{
    return m_status->text();
}

QString ComparePanel::noticeText() const
{
    return m_notice->text();
}

QString ComparePanel::pairAnswersText() const
{
    return m_answers->toPlainText();
}

} // namespace kforge
