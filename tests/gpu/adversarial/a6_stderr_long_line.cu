// Class 6 (floods): one 256 MiB line without a newline on stderr. On its first call it writes 256 MiB of 'e'
// to fd 2 in 1 MiB blocks (stopping at the first failing write), never a newline; then it computes
// diag_matmul honestly.
// KForge must keep a bounded tail of stderr and give the verdict: `correct` with `output_truncated`.
#include "advcommon.cuh"

#include <unistd.h>

#include <string>

static bool flood()
{
    const std::string block(1 << 20, 'e');
    for (int i = 0; i < 256; ++i)
        if (write(2, block.data(), block.size()) <= 0)
            break;
    return true;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static const bool flooded = flood();
    (void)flooded;
    return adv_rowscale(in, out, stream);
}
