// Class 5 (trace evasion): works on a second stream that is never joined back. Each call launches the row
// scale on a private non-blocking stream and returns at once, so nothing is enqueued on the given stream and
// the work overlaps whatever the judge does next.
// KForge must catch it: not `correct`, or `correct` with `side_stream_work` or `work_outside_call`.
#include "advcommon.cuh"

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    (void)stream;
    static cudaStream_t side = [] {
        cudaStream_t s = nullptr;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        return s;
    }();
    return adv_rowscale(in, out, side);
}
