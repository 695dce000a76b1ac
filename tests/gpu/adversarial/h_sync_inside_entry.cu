// Honest: a kernel whose entry synchronizes its stream before returning (a library that checks its own errors
// with cudaStreamSynchronize). The gate cannot hold such a batch (the host waits for its own work while
// enqueueing): the judge times this side without the gate and says so, and the other side keeps its gate.
// KForge must report `correct` with no flag.
#include "advcommon.cuh"

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    int rc = adv_rowscale(in, out, stream);
    if (rc == 0)
        rc = (int)cudaStreamSynchronize(stream);
    return rc;
}
