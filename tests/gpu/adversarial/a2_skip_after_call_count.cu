// Class 2 (timed vs verification): counts calls. The old worker verified a fixed number of trials first and
// then timed; this kernel computes (cuBLAS SGEMM) on its first five calls and on every 64th call, and returns
// at once on all the others.
// KForge must catch it: not `correct`, or `correct` with a floor flag (the skipped calls time far below the
// FLOP floor).
#include "advcommon.cuh"

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static long calls = 0;
    ++calls;
    if (calls <= 5 || calls % 64 == 0)
        return adv_sgemm(in, out, stream);
    return cudaSuccess;
}
