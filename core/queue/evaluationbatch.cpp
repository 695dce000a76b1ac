#include "core/queue/evaluationbatch.h"

#include <QMetaObject>

namespace kforge {

EvaluationBatch::EvaluationBatch(EvaluationQueue *queue, QObject *parent)
    : QObject(parent)
    , m_queue(queue)
{
    connect(queue, &EvaluationQueue::progress, this, [this](int ticket, const QString &stage) {
        if (const int i = indexOf(ticket); i >= 0)
            Q_EMIT progress(i, stage);
    });
    connect(queue, &EvaluationQueue::provisional, this, [this](int ticket, const EvalResult &result) {
        if (const int i = indexOf(ticket); i >= 0)
            Q_EMIT provisional(i, result);
    });
    connect(queue, &EvaluationQueue::compiled, this, [this](int ticket, const CompileResult &c) {
        if (const int i = indexOf(ticket); i >= 0) {
            m_items[std::size_t(i)].compiledAtMs = double(m_clock.nsecsElapsed()) / 1e6;
            Q_EMIT compiled(i, c);
        }
    });
    connect(queue, &EvaluationQueue::finished, this, &EvaluationBatch::onFinished);
}

void EvaluationBatch::start(const QList<EvalRequest> &requests)
{
    start(requests, [queue = m_queue](const EvalRequest &r) { return queue ? queue->submitSource(r) : 0; });
}

void EvaluationBatch::start(const QList<EvalRequest> &requests, const std::function<int(const EvalRequest &)> &submit)
{
    if (m_started || !m_queue)
        return;
    m_started = true;
    m_clock.start();
    m_items.reserve(std::size_t(requests.size()));
    for (const EvalRequest &r : requests)
        m_items.push_back(Item{r});
    // All at once: the compiler bounds its parallel jobs by the cores, the pool runs what is compiled.
    for (std::size_t i = 0; i < m_items.size(); ++i) {
        m_items[i].ticket = submit(m_items[i].request);
        if (m_items[i].ticket)
            continue;
        // Not submitted: it finishes, from the event loop as the others do, with why.
        QueuedEvaluation failed;
        failed.result.verdict = Verdict::Error;
        failed.result.message = m_queue->errorString();
        QMetaObject::invokeMethod(
            this, [this, i, failed] { finishItem(int(i), failed); }, Qt::QueuedConnection);
    }
    if (m_items.empty())
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_wallMs = 0;
                Q_EMIT finished();
            },
            Qt::QueuedConnection);
}

void EvaluationBatch::cancel()
{
    if (!m_queue)
        return;
    for (const Item &item : m_items)
        if (!item.done && item.ticket)
            m_queue->cancel(item.ticket);
}

double EvaluationBatch::perMinute() const
{
    return isFinished() && m_wallMs > 0 ? size() * 60000.0 / m_wallMs : 0;
}

int EvaluationBatch::indexOf(int ticket) const
{
    for (std::size_t i = 0; i < m_items.size(); ++i)
        if (m_items[i].ticket == ticket && ticket != 0)
            return int(i);
    return -1;
}

void EvaluationBatch::onFinished(const QueuedEvaluation &e)
{
    if (const int i = indexOf(e.ticket); i >= 0)
        finishItem(i, e);
}

void EvaluationBatch::finishItem(int i, const QueuedEvaluation &e)
{
    if (m_items[std::size_t(i)].done)
        return;
    Item &item = m_items[std::size_t(i)];
    item.done = true;
    item.evaluated = e;
    item.finishedAtMs = double(m_clock.nsecsElapsed()) / 1e6;
    ++m_finished;
    Q_EMIT candidateFinished(i, e);
    if (m_finished == size()) {
        m_wallMs = item.finishedAtMs;
        Q_EMIT finished();
    }
}

} // namespace kforge
