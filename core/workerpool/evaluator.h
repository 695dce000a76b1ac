#pragma once
// The interface the optimizer (rounds), the workbench and the CLI evaluate candidates through: a candidate's source
// goes in; progress, maybe a provisional result to show, and one EvalResult come out, asynchronously. PoolEvaluator
// is the real implementation (nvcc + GPU workers); ScriptedEvaluator is the one fake KForge allows, for testing
// orchestration where there is no GPU.
#include "core/compile/compileresult.h"
#include "core/eval/evaloptions.h"
#include "core/eval/evalresult.h"
#include "core/task/task.h"
#include "core/workerpool/workerreadiness.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

namespace kforge {

struct EvalRequest {
    Task task;
    QString candidateSource;
    QString candidateName = QStringLiteral("candidate.cu"); // the file name diagnostics use
    QStringList candidateFlags; // extra nvcc flags of this candidate (the task's come first)
    EvalOptions options;
    QString arch; // empty: the worker's architecture
};

class Evaluator : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~Evaluator() override = default;

    // Queues an evaluation and returns its id (> 0). finished(id, ...) follows exactly once, also when it
    // fails to compile, is cancelled, or no worker can run it (verdict Error with the reason).
    virtual int submit(const EvalRequest &request) = 0;
    virtual void cancel(int id) = 0;
    // Starts what an evaluation of `request` will need, ahead of its submit(): the candidate's nvcc build (a cache
    // hit then), a ModelNew's load_inline builds on the workers. Nothing is answered; a stand-in does nothing.
    virtual void prepare(const EvalRequest &request) { Q_UNUSED(request); }
    // Whether what is submitted now can be evaluated, and if not why (no worker, none started, no GPU): the
    // one signal every view observes. A stand-in with no workers behind it is always ready.
    virtual WorkerReadiness readiness() const { return {}; }

Q_SIGNALS:
    // Stages, in order: "compiling", "queued", "loading", then the worker's ("verifying", "timing",
    // "tracing", "profiling").
    void progress(int id, const QString &stage);
    // The verdict and the timing as they stood after the "timing" stage, before the passes that follow it
    // (EvalResult::provisional, with the passes still to run in EvalResult::pending): at most once, only to be shown.
    // finished() still follows with the result that counts, which may differ (a pass adds flags, warnings, metrics).
    void measured(int id, const kforge::EvalResult &provisional);
    // The candidate's compile result (diagnostics, per-kernel resources), before finished().
    void compiled(int id, const kforge::CompileResult &candidate);
    void finished(int id, const kforge::EvalResult &result);
    void readinessChanged(const kforge::WorkerReadiness &readiness);
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::EvalRequest)
