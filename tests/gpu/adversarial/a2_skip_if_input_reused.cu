// Class 2 (timed vs verification): remembers input addresses. The old worker generated a new input set for
// each verification trial and reused one set for every timed run; this kernel computes (cuBLAS SGEMM) the
// first time it sees an input address and returns at once when the address comes back.
// KForge must catch it: not `correct`, or `correct` with a floor flag, or (when every call gets new
// addresses) the honest speed of SGEMM.
#include "advcommon.cuh"

#include <set>

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static std::set<const void *> seen;
    if (!seen.insert(in[0].data).second)
        return cudaSuccess;
    return adv_sgemm(in, out, stream);
}
