// Class 6 (hogs): takes almost all device memory and keeps it. On its first call it allocates 1 GiB blocks
// with cudaMalloc, then smaller ones, until less than 64 MiB is free, never frees them, and computes
// diag_matmul honestly.
// KForge must give a verdict (`out_of_memory` or `correct`), not a timeout, and the next evaluation (the
// manifest's follow-up case, in the same worker) must be unaffected.
#include "advcommon.cuh"

static bool hog()
{
    for (size_t block = 1ull << 30; block >= (16u << 20); block /= 2) {
        for (;;) {
            size_t freeBytes = 0, total = 0;
            if (cudaMemGetInfo(&freeBytes, &total) != cudaSuccess || freeBytes < block + (64u << 20))
                break;
            void *p = nullptr;
            if (cudaMalloc(&p, block) != cudaSuccess) {
                cudaGetLastError();
                break;
            }
        }
    }
    return true;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static const bool hogged = hog();
    (void)hogged;
    return adv_rowscale(in, out, stream);
}
