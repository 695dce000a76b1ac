#pragma once
// Several candidates of one task evaluated in one go (`kforge-cli eval TASK a.cu b.cu ...`): every request is
// submitted to the EvaluationQueue at once, so the compile service spreads their nvcc runs over its parallel jobs
// (one per core) while the worker pool evaluates the ones already compiled on its warm worker, which keeps the
// reference loaded between candidates. Results come back per candidate in the order given, each with when its
// compile came back and when it finished, so a caller can print the time split. Lives on the queue's thread.
#include "core/queue/evaluationqueue.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <functional>
#include <vector>

namespace kforge {

class EvaluationBatch : public QObject
{
    Q_OBJECT
public:
    struct Item {
        EvalRequest request;
        int ticket = 0;
        bool done = false;
        QueuedEvaluation evaluated;
        double compiledAtMs = -1; // since start(); -1 until the compile came back (never for a cancelled one)
        double finishedAtMs = -1;
    };

    // The queue is not owned and must outlive the batch.
    explicit EvaluationBatch(EvaluationQueue *queue, QObject *parent = nullptr);

    // Submits every request (sources outside any session, as EvaluationQueue::submitSource). Once per batch;
    // finished() follows when every candidate has finished, at once for an empty list.
    void start(const QList<EvalRequest> &requests);
    // The same with each request handed to `submit`, which returns its ticket, e.g. as a new variant of the open
    // session (EvaluationQueue::addVariant); one it could not submit (0) finishes with the queue's error.
    void start(const QList<EvalRequest> &requests, const std::function<int(const EvalRequest &)> &submit);
    void cancel();

    int size() const { return int(m_items.size()); }
    const Item &item(int index) const { return m_items.at(std::size_t(index)); }
    int finishedCount() const { return m_finished; }
    bool isFinished() const { return m_started && m_finished == size(); }
    double wallMs() const { return m_wallMs; } // start() to the last finished(); -1 before
    // Candidates per minute over the wall time, 0 before the batch finished.
    double perMinute() const;

Q_SIGNALS:
    void progress(int index, const QString &stage);
    // A candidate's result after timing, before the worker's passes (EvaluationQueue::provisional); only to be shown.
    void provisional(int index, const kforge::EvalResult &result);
    void compiled(int index, const kforge::CompileResult &candidate);
    void candidateFinished(int index, const kforge::QueuedEvaluation &evaluation);
    void finished();

private:
    int indexOf(int ticket) const;
    void onFinished(const QueuedEvaluation &e);
    void finishItem(int index, const QueuedEvaluation &e);

    QPointer<EvaluationQueue> m_queue;
    std::vector<Item> m_items;
    QElapsedTimer m_clock;
    bool m_started = false;
    int m_finished = 0;
    double m_wallMs = -1;
};

} // namespace kforge
