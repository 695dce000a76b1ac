// Class 6 (crashes): a segmentation fault in host code, inside kf_entry.
// KForge must report `crashed` (naming the signal), the judge unaffected.
#include "advcommon.cuh"

#include <signal.h>

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)in;
    (void)nin;
    (void)out;
    (void)nout;
    (void)params;
    (void)stream;
    signal(SIGSEGV, SIG_DFL);
    volatile int *nowhere = nullptr;
    *nowhere = 42;
    return cudaSuccess;
}
