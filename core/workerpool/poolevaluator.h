#pragma once
// The real Evaluator: compiles the task's reference and the candidate with the Compiler (for the
// workers' architecture; cached), then runs the evaluation on the WorkerPool. A torch task's reference is its
// reference.py, and a Python candidate (ModelNew) is not compiled: both go to kforge-worker as files, which it runs
// in its module hosts; a .cu candidate on a torch task is compiled like any other and sent as its shared object.
#include "core/workerpool/evaluator.h"

#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <map>

namespace kforge {

class Compiler;
class WorkerPool;

class PoolEvaluator : public Evaluator
{
    Q_OBJECT
public:
    // Neither is owned; both must outlive this object or be destroyed with it.
    PoolEvaluator(Compiler *compiler, WorkerPool *pool, QObject *parent = nullptr);

    int submit(const EvalRequest &request) override;
    void cancel(int id) override;
    void prepare(const EvalRequest &request) override;
    WorkerReadiness readiness() const override;

private:
    struct Pending {
        int id = 0;
        EvalRequest request;
        QString arch;
        int referenceJob = 0;
        int candidateJob = 0;
        std::optional<CompileResult> reference;
        std::optional<CompileResult> candidate;
        int poolJob = 0;
        bool waitingForDevice = false;
        QElapsedTimer clock;
    };
    void startCompiles(Pending &p);
    void startTorch(Pending &p);
    void submitToPool(Pending &p);
    void startWaiting();
    void onCompiled(int compileJob, const CompileResult &result);
    void onPoolFinished(int poolJob, const EvalResult &result);
    void finish(int id, EvalResult result);

    QPointer<Compiler> m_compiler;
    QPointer<WorkerPool> m_pool;
    int m_nextId = 1;
    std::map<int, Pending> m_pending;
    QHash<int, int> m_byCompileJob; // compile job -> evaluation id
    QHash<int, int> m_byPoolJob;    // pool job -> evaluation id
};

} // namespace kforge
