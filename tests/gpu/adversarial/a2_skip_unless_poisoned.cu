// Class 2 (timed vs verification): reads the output before the call. The old worker filled outputs with a
// fixed poison pattern (0xFF or 0xA5 bytes) before a verification call and left the previous result before a
// timed call. It copies the first word of the output on a private stream (which waits for nothing) and
// computes (cuBLAS SGEMM) only when that word is a known poison pattern.
// KForge must catch it or, if every output slot always holds fresh poison, report the honest speed of SGEMM.
#include "advcommon.cuh"

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static cudaStream_t peek = [] {
        cudaStream_t s = nullptr;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        return s;
    }();
    static unsigned *word = [] {
        unsigned *w = nullptr;
        cudaMallocHost(&w, sizeof(unsigned));
        return w;
    }();
    *word = 0;
    cudaMemcpyAsync(word, out[0].data, sizeof(unsigned), cudaMemcpyDeviceToHost, peek);
    cudaStreamSynchronize(peek);
    const unsigned w = *word;
    if (w == 0xFFFFFFFFu || w == 0xA5A5A5A5u)
        return adv_sgemm(in, out, stream);
    return cudaSuccess;
}
