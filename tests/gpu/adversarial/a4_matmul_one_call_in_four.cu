// Class 4 (arithmetic floor): skips most of the arithmetic. Its first five calls and one call in four after
// that run cuBLAS SGEMM; the others return at once, so on average a call costs a quarter of SGEMM, about four
// times faster than the GPU's FP32 peak allows for 2*M*N*K FLOP.
// KForge must catch it: not `correct` (a skipped call's poisoned output is compared), or `correct` with
// `beats_flop_floor` / `below_speed_of_light`.
#include "advcommon.cuh"

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static long calls = 0;
    ++calls;
    if (calls <= 5 || calls % 4 == 0)
        return adv_sgemm(in, out, stream);
    return cudaSuccess;
}
