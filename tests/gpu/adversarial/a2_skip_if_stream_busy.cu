// Class 2 (timed vs verification): tells timed calls by the stream's state. Before a timed call the old
// worker left an L2 flush and a start event pending on the stream; before a verification call the stream was
// idle. When cudaStreamQuery says the stream still has work, it returns without computing; otherwise it runs
// cuBLAS SGEMM like the reference.
// KForge must catch it (not `correct`, or a floor flag) or, if every call looks the same, report the honest
// speed of SGEMM (max_speedup).
#include "advcommon.cuh"

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    if (cudaStreamQuery(stream) == cudaErrorNotReady)
        return cudaSuccess;
    return adv_sgemm(in, out, stream);
}
