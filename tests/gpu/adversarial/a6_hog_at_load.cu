// Class 6 (hogs), issue 35 item 2: takes almost all device memory while its library is loaded (a static
// constructor, before the judge has sized its batches), so that the judge would find little free memory and run
// short batches; it computes diag_matmul honestly.
// KForge must size the batches from what was free before the candidate's code ran and report `out_of_memory`
// naming the candidate's budget (three quarters of that), not a timeout; the next evaluation (the manifest's
// follow-up case, in the same worker) must be unaffected.
#include "advcommon.cuh"

[[maybe_unused]] static const bool hogAtLoad = adv_hog_device_memory(); // a static initializer: runs when the library is loaded

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    return adv_rowscale(in, out, stream);
}
