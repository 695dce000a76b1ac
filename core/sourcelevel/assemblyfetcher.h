#pragma once
// PTX and SASS of one kernel source for the assembly panel: PTX from nvcc (-ptx -lineinfo), SASS from the
// local nvdisasm/cuobjdump through the Compiler when the toolkit here has one, else from a worker's
// `disassemble` request on the .so (the GPU host always has the full toolkit). Both through the Compiler's
// content-addressed cache; parsing off the GUI thread. Each step that cannot run says what is missing and
// what would enable it.
#include "core/compile/compilerequest.h"
#include "core/eval/kernelresources.h"
#include "core/sourcelevel/ptxlisting.h"
#include "core/sourcelevel/sasslisting.h"

#include <QMetaType>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <map>

namespace kforge {

class Compiler;
class WorkerPool;
struct CompileResult;
struct WorkerReply;

struct Assembly {
    QString fileName; // the name nvcc compiled (the listings' lines name it): match editor tabs by it
    PtxListing ptx;
    QString ptxError; // why there is no PTX, or why its lines cannot be matched; empty when all is well
    SassListing sass;
    QString sassError; // why there is no SASS, or why it has no lines; empty when all is well
    QString sassTool;  // "nvdisasm 13.0.88 on worker gpu0", "nvdisasm (local)"
    QList<KernelResources> resources;
    bool ptxDone = false;
    bool sassDone = false;
};

class AssemblyFetcher : public QObject
{
    Q_OBJECT
public:
    // Neither is owned; `pool` may be null (no workers: local tools only).
    AssemblyFetcher(Compiler *compiler, WorkerPool *pool, QObject *parent = nullptr);
    ~AssemblyFetcher() override;

    // `request.output` is ignored. Returns a job id; updated() follows for each half, finished() once.
    int fetch(CompileRequest request);
    void cancel(int id);
    // The SASS of a disassemble reply (docs/worker-protocol.md): every cubin's nvdisasm text, else the
    // cuobjdump text.
    static SassListing parseDisassembly(const QJsonObject &reply);

Q_SIGNALS:
    void updated(int id, const kforge::Assembly &assembly); // PTX or SASS arrived (the other may still run)
    void finished(int id, const kforge::Assembly &assembly);

private:
    struct Job {
        int id = 0;
        CompileRequest request;
        Assembly assembly;
        int ptxCompile = 0, sassCompile = 0, soCompile = 0;
        QPointer<QObject> worker; // the WorkerClient asked to disassemble
        int workerRequest = 0;
        QString workerName;
    };
    void onCompiled(int compileJob, const CompileResult &result);
    void onWorkerReply(int id, const WorkerReply &reply);
    void askWorker(Job &job, const QString &soPath);
    void sassFailed(Job &job, const QString &message);
    void sassParsed(int id, SassListing listing, const QString &tool);
    void maybeFinish(int id);
    Job *jobOfCompile(int compileJob);

    QPointer<Compiler> m_compiler;
    QPointer<WorkerPool> m_pool;
    std::map<int, Job> m_jobs;
    QSet<QObject *> m_connected; // workers whose replies this object watches
    int m_nextId = 1;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::Assembly)
