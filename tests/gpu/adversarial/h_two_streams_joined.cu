// Honest: work split over two streams and joined back before returning. The given stream records an event
// the side stream waits for; each stream scales half of the rows; the side stream records an event the given
// stream waits for, so all work is ordered before anything the caller enqueues next.
// KForge must report `correct` with no flag (in particular no `side_stream_work` / `work_outside_call`).
#include "advcommon.cuh"

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static cudaStream_t side = nullptr;
    static cudaEvent_t fork = nullptr, join = nullptr;
    if (!side) {
        cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
        cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
        cudaEventCreateWithFlags(&join, cudaEventDisableTiming);
    }
    const int64_t n = in[1].shape[0], half = n / 2;
    cudaEventRecord(fork, stream);
    cudaStreamWaitEvent(side, fork, 0);
    int rc = adv_rowscale_rows(in, out, 0, half, stream);
    if (rc == 0)
        rc = adv_rowscale_rows(in, out, half, n - half, side);
    cudaEventRecord(join, side);
    cudaStreamWaitEvent(stream, join, 0);
    return rc ? rc : (int)cudaGetLastError();
}
