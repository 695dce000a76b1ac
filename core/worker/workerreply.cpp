#include "core/worker/workerreply.h"

using namespace Qt::StringLiterals;

namespace kforge {

EvalResult WorkerReply::toEvalResult() const
{
    if (ok) {
        EvalResult r = EvalResult::fromJson(body.value("result"_L1).toObject());
        r.elapsedMs = elapsedMs;
        return r;
    }
    Verdict v = Verdict::Error;
    if (errorCode == Timeout)
        v = Verdict::Timeout;
    else if (errorCode == Crashed)
        v = Verdict::Crashed;
    else if (errorCode == "load_failed"_L1 || errorCode == "abi_mismatch"_L1 || errorCode == "missing_entry"_L1)
        v = Verdict::LoadError;
    EvalResult r = EvalResult::failure(v, errorMessage, errorCode);
    r.exitCode = exitCode;
    r.exitSignal = exitSignal;
    r.elapsedMs = elapsedMs;
    return r;
}

} // namespace kforge
