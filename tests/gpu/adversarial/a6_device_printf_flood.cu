// Class 6 (floods): a million device printf lines. On its first call it raises the printf FIFO to 64 MiB
// and launches 2^20 threads that each print one line (about 30 MB of text once the stream synchronizes);
// then, on every call, it computes diag_matmul honestly.
// KForge must cap the output and give the verdict: `correct` with `output_truncated`.
#include "advcommon.cuh"

#include <cstdio>

__global__ void chatter()
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    printf("kfadv device printf line %u\n", i);
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static bool first = true;
    if (first) {
        first = false;
        cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 64u << 20);
        cudaGetLastError(); // a context that already printed may refuse the new limit
        chatter<<<4096, 256, 0, stream>>>();
    }
    return adv_rowscale(in, out, stream);
}
