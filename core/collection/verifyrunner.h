#pragma once
// Runs a collection's pairs through the one evaluation queue (core/queue/evaluationqueue.h: the compiler and
// the worker pool, as every evaluation), appending each result to the results log the moment it arrives. What a
// pair needs is read off the log, so a run that starts again picks up where the last one was killed:
//   main       the pair as published;
//   tol_1e-3, then tol_1e-2   only after an incorrect main: the task again with atol = rtol at that level, to say at
//              which tolerance the candidate would pass (a precision downgrade passes at 1e-2);
//   heldout_1, heldout_2      only after a correct main, where the problem has held-out sizes.
// A pair's runs go one after another; up to maxInFlight evaluations of different pairs are in the queue at once,
// so the compiler builds ahead of the GPU, and the next prepareAhead pairs after those get their builds started
// (EvaluationQueue::prepare: a .cu's nvcc on the compiler's cores, a load_inline ModelNew's build on the workers)
// while the GPU measures the ones before. A result without a verdict (no worker, cancelled) is not logged: the pair
// is tried again next time. runFinished() per logged result, noVerdict() per result not logged, finished() once.
#include "core/collection/collection.h"
#include "core/collection/collectionimporter.h"
#include "core/collection/verifyrecord.h"
#include "core/eval/evaloptions.h"
#include "core/task/task.h"
#include "core/workerpool/evaluator.h"

#include <QElapsedTimer>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <optional>

namespace kforge {

class EvaluationQueue;
class ResultsLog;
struct QueuedEvaluation;

// A pair whose problem was imported: what the runner evaluates.
struct VerifyItem {
    CollectionPair pair;
    QString taskFolder;
    QList<HeldOutTask> heldOut;
};

class VerifyRunner : public QObject
{
    Q_OBJECT
public:
    struct Options {
        EvalOptions eval;
        bool tolerances = true; // re-verify an incorrect pair at 1e-3 and 1e-2
        bool heldOut = true;    // verify a correct pair at its held-out sizes
        int maxInFlight = 4;
        int prepareAhead = 8; // pairs past the ones in flight whose builds start ahead; 0: none
    };

    // Neither is owned; both must outlive the runner.
    VerifyRunner(EvaluationQueue *queue, ResultsLog *log, QObject *parent = nullptr);

    // The run a pair needs next given what the log holds, none when it is complete.
    static std::optional<VerifyRun> nextRun(const VerifyItem &item, const ResultsLog &log, const Options &options);
    // `task` with every floating dtype's atol and rtol raised to at least `tolerance` (f32 added when absent).
    static std::optional<Task> withTolerance(const Task &task, double tolerance, QString *error);

    void start(const QList<VerifyItem> &items, const Options &options);
    // Submits nothing more and cancels what is in flight; finished() follows once it has come back.
    void cancel();
    bool isRunning() const { return !m_finished; }

    int pairs() const { return int(m_items.size()); }
    int pairsDone() const { return m_done; } // complete, those complete at start() included
    int pairsDoneAtStart() const { return m_doneAtStart; }
    int pairsWithoutVerdict() const { return int(m_stalled.size()); }
    double elapsedS() const { return m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0; }
    // The time left, from the pace of the pairs completed in this run; nullopt before the first.
    std::optional<double> etaS() const;

Q_SIGNALS:
    void runFinished(const kforge::VerifyRecord &record);
    void noVerdict(const QString &pair, const QString &message);
    void failed(const QString &message); // the log cannot be written: the run stops
    void finished();

private:
    struct InFlight {
        int item = -1;
        VerifyRun run = VerifyRun::Main;
        QString task;
        QElapsedTimer clock;
        double workerStartS = -1; // when a worker took it (stage "loading"), from clock
    };
    void schedule();
    // The request of `item`'s `run`, nullopt with `error` when its task does not load.
    std::optional<EvalRequest> requestOf(int item, VerifyRun run, QString *error) const;
    bool submit(int item, VerifyRun run);
    void prepareAhead();
    void onFinished(const QueuedEvaluation &e);
    bool isComplete(int item) const;
    void finishIfIdle();

    QPointer<EvaluationQueue> m_queue;
    ResultsLog *m_log = nullptr;
    Options m_options;
    QList<VerifyItem> m_items;
    QMap<int, InFlight> m_inFlight; // by ticket
    QSet<int> m_busy;               // items with a run in flight
    QSet<int> m_stalled;            // items with a result without verdict in this run
    QSet<int> m_complete;
    QSet<int> m_prepared; // items whose builds were started, ahead or by their first evaluation
    QElapsedTimer m_clock;
    int m_done = 0;
    int m_doneAtStart = 0;
    bool m_finished = true;
    bool m_stopping = false; // cancel(): nothing more is submitted
};

} // namespace kforge
