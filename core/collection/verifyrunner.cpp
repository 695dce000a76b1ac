#include "core/collection/verifyrunner.h"

#include "core/collection/resultslog.h"
#include "core/queue/evaluationqueue.h"

#include <QJsonDocument>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

VerifyRunner::VerifyRunner(EvaluationQueue *queue, ResultsLog *log, QObject *parent)
    : QObject(parent)
    , m_queue(queue)
    , m_log(log)
{
    connect(queue, &EvaluationQueue::finished, this, &VerifyRunner::onFinished);
    connect(queue, &EvaluationQueue::progress, this, [this](int ticket, const QString &stage) {
        const auto it = m_inFlight.find(ticket);
        if (it != m_inFlight.end() && stage == u"loading"_s && it->workerStartS < 0)
            it->workerStartS = it->clock.nsecsElapsed() / 1e9;
    });
}

std::optional<VerifyRun> VerifyRunner::nextRun(const VerifyItem &item, const ResultsLog &log, const Options &options)
{
    const VerifyRecord *main = log.find(item.pair.id, VerifyRun::Main);
    if (!main)
        return VerifyRun::Main;
    const Verdict verdict = main->result.verdict;
    if (options.tolerances && verdict == Verdict::Incorrect) {
        const VerifyRecord *loose = log.find(item.pair.id, VerifyRun::Tolerance3);
        if (!loose)
            return VerifyRun::Tolerance3;
        if (!loose->result.isCorrect() && !log.find(item.pair.id, VerifyRun::Tolerance2))
            return VerifyRun::Tolerance2;
    }
    if (options.heldOut && verdict == Verdict::Correct)
        for (const HeldOutTask &h : item.heldOut) {
            const VerifyRun run = h.index == 1 ? VerifyRun::HeldOut1 : VerifyRun::HeldOut2;
            if (!h.taskFolder.isEmpty() && !log.find(item.pair.id, run))
                return run;
        }
    return std::nullopt;
}

std::optional<Task> VerifyRunner::withTolerance(const Task &task, double tolerance, QString *error)
{
    QJsonObject json = task.toJson();
    QJsonObject tol = json.value(u"tolerance"_s).toObject();
    if (!tol.contains(u"f32"_s))
        tol.insert(u"f32"_s, QJsonObject{});
    for (const QString &dtype : tol.keys()) {
        if (!QStringList{u"f64"_s, u"f32"_s, u"f16"_s, u"bf16"_s}.contains(dtype))
            continue; // integers stay exact
        QJsonObject t = tol.value(dtype).toObject();
        for (const QString &k : {u"atol"_s, u"rtol"_s})
            t.insert(k, std::max(t.value(k).toDouble(0), tolerance));
        tol.insert(dtype, t);
    }
    json.insert(u"tolerance"_s, tol);
    json.remove(u"variants"_s); // files of the folder, not the task's function
    const QMap<QString, QByteArray> files{{u"task.json"_s, QJsonDocument(json).toJson()},
                                          {task.referenceFileName(), task.referenceSource().toUtf8()}};
    const TaskLoadResult loaded = Task::fromFiles(task.name(), files);
    if (!loaded.ok())
        *error = loaded.error.message();
    return loaded.task;
}

void VerifyRunner::start(const QList<VerifyItem> &items, const Options &options)
{
    m_items = items;
    m_options = options;
    m_options.maxInFlight = std::max(1, options.maxInFlight);
    m_inFlight.clear();
    m_busy.clear();
    m_stalled.clear();
    m_complete.clear();
    m_prepared.clear();
    m_clock.start();
    m_finished = false;
    m_stopping = false;
    for (int i = 0; i < int(m_items.size()); ++i)
        if (!nextRun(m_items.at(i), *m_log, m_options))
            m_complete.insert(i);
    m_doneAtStart = m_done = int(m_complete.size());
    // Queued, so that a caller connects to the first signals after start() returns.
    QMetaObject::invokeMethod(this, &VerifyRunner::schedule, Qt::QueuedConnection);
}

void VerifyRunner::cancel()
{
    // Nothing more is submitted; what is in flight comes back cancelled (not logged), then finished().
    m_stopping = true;
    const QList<int> tickets = m_inFlight.keys(); // a cancel may answer at once
    for (int ticket : tickets)
        if (m_queue)
            m_queue->cancel(ticket);
    finishIfIdle();
}

std::optional<double> VerifyRunner::etaS() const
{
    const int doneHere = m_done - m_doneAtStart;
    const int left = pairs() - m_done - pairsWithoutVerdict();
    if (doneHere <= 0)
        return std::nullopt;
    return elapsedS() / doneHere * std::max(0, left);
}

bool VerifyRunner::isComplete(int item) const
{
    return m_complete.contains(item);
}

void VerifyRunner::schedule()
{
    for (int i = 0; !m_stopping && i < int(m_items.size()) && m_inFlight.size() < m_options.maxInFlight; ++i) {
        if (m_busy.contains(i) || m_stalled.contains(i) || isComplete(i))
            continue;
        const std::optional<VerifyRun> run = nextRun(m_items.at(i), *m_log, m_options);
        if (!run) {
            m_complete.insert(i);
            ++m_done;
            continue;
        }
        if (!submit(i, *run))
            m_stalled.insert(i);
    }
    prepareAhead();
    finishIfIdle();
}

void VerifyRunner::prepareAhead()
{
    // After what was just submitted, so the compiler's queue serves the evaluations waiting for it first.
    int started = 0;
    for (int i = 0; !m_stopping && m_queue && i < int(m_items.size()) && started < m_options.prepareAhead; ++i) {
        if (m_busy.contains(i) || m_stalled.contains(i) || isComplete(i))
            continue;
        ++started; // counted whether prepared now or before: the window slides with the run
        if (m_prepared.contains(i))
            continue;
        m_prepared.insert(i);
        const std::optional<VerifyRun> run = nextRun(m_items.at(i), *m_log, m_options);
        QString error;
        if (const std::optional<EvalRequest> request = run ? requestOf(i, *run, &error) : std::nullopt)
            m_queue->prepare(*request);
    }
}

std::optional<EvalRequest> VerifyRunner::requestOf(int item, VerifyRun run, QString *error) const
{
    const VerifyItem &v = m_items.at(item);
    QString folder = v.taskFolder;
    if (const int k = heldOutIndex(run))
        for (const HeldOutTask &h : v.heldOut)
            if (h.index == k)
                folder = h.taskFolder;
    const TaskLoadResult loaded = Task::load(folder);
    *error = loaded.ok() ? QString() : loaded.error.message();
    std::optional<Task> task = loaded.task;
    if (task && runTolerance(run) > 0)
        task = withTolerance(*task, runTolerance(run), error);
    if (!task)
        return std::nullopt;
    EvalRequest request;
    request.task = *task;
    request.candidateSource = v.pair.candidateSource;
    request.candidateName = v.pair.candidateName;
    request.options = m_options.eval;
    return request;
}

bool VerifyRunner::submit(int item, VerifyRun run)
{
    const VerifyItem &v = m_items.at(item);
    QString error;
    const std::optional<EvalRequest> request = requestOf(item, run, &error);
    if (!request || !m_queue) {
        Q_EMIT noVerdict(v.pair.id, error);
        return false;
    }
    const int ticket = m_queue->submitSource(*request);
    if (ticket <= 0) {
        Q_EMIT noVerdict(v.pair.id, m_queue->errorString());
        return false;
    }
    m_prepared.insert(item); // built by now, or being built for this evaluation
    InFlight &f = m_inFlight[ticket];
    f.item = item;
    f.run = run;
    f.task = request->task.name();
    f.clock.start();
    m_busy.insert(item);
    return true;
}

void VerifyRunner::onFinished(const QueuedEvaluation &e)
{
    const auto it = m_inFlight.find(e.ticket);
    if (it == m_inFlight.end())
        return;
    const InFlight f = *it;
    m_inFlight.erase(it);
    m_busy.remove(f.item);
    const VerifyItem &v = m_items.at(f.item);
    if (e.result.verdict == Verdict::Error) {
        // Nothing was decided about the candidate (no worker, no GPU, cancelled): not logged, tried next time.
        m_stalled.insert(f.item);
        if (!e.cancelled())
            Q_EMIT noVerdict(v.pair.id, e.result.message);
    } else {
        VerifyRecord r;
        r.pair = v.pair.id;
        r.run = f.run;
        r.problem = v.pair.problemKey;
        r.task = f.task;
        r.candidate = v.pair.candidateOrigin;
        r.kind = kindName(v.pair.kind);
        r.claimedSpeedup = v.pair.claimedSpeedup;
        r.result = EvaluationQueue::storedResult(e.result, e.compiled);
        const double totalS = f.clock.nsecsElapsed() / 1e9;
        r.wallS = totalS;
        r.workerS = f.workerStartS >= 0 ? totalS - f.workerStartS : -1;
        r.finishedAt = QDateTime::currentDateTimeUtc();
        QString error;
        if (!m_log->append(r, &error)) {
            cancel();
            m_finished = true;
            Q_EMIT failed(error);
            Q_EMIT finished();
            return;
        }
        if (!nextRun(v, *m_log, m_options)) {
            m_complete.insert(f.item);
            ++m_done;
        }
        Q_EMIT runFinished(r);
    }
    schedule();
}

void VerifyRunner::finishIfIdle()
{
    if (m_finished || !m_inFlight.isEmpty())
        return;
    m_finished = true;
    Q_EMIT finished();
}

} // namespace kforge
