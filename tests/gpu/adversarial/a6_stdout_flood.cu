// Class 6 (floods): 1.1 GiB to stdout. On its first call it writes 1 MiB blocks of text to fd 1 until
// 1.1 GiB are written or a write fails (a capped file answers EFBIG); then it computes diag_matmul honestly.
// KForge must cap the log at the source and still give the verdict: `correct` with `output_truncated`.
#include "advcommon.cuh"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <string>

static bool flood()
{
    std::string block(1 << 20, 'o');
    for (std::size_t i = 79; i < block.size(); i += 80)
        block[i] = '\n';
    const std::size_t total = 1100ull << 20;
    for (std::size_t written = 0; written < total; written += block.size())
        if (write(1, block.data(), block.size()) <= 0)
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
