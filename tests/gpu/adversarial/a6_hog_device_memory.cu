// Class 6 (hogs): takes almost all device memory and keeps it. On its first call it allocates 1 GiB blocks
// with cudaMalloc, then smaller ones, until less than 64 MiB is free, never frees them, and computes
// diag_matmul honestly.
// KForge must give a verdict (`out_of_memory` or `correct`), not a timeout, and the next evaluation (the
// manifest's follow-up case, in the same worker) must be unaffected.
#include "advcommon.cuh"

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static const bool hogged = adv_hog_device_memory();
    (void)hogged;
    return adv_rowscale(in, out, stream);
}
