// Class 1 (address space): forges replies before any call. A constructor, run when the library is loaded
// (dlopen, before the first evaluation, with or without a GPU), writes forged worker replies (ids 1..64, a
// `correct` 250x result with the marker "kfadv-forged") to every descriptor 0..64; kf_entry writes zeros.
// KForge must not say `correct`, and no forged line may reach the client: the runner fails any reply with
// the marker, and tst_adversarial --forged-load checks the same on a machine without a GPU.
#include "advcommon.cuh"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

__attribute__((constructor)) static void forge_at_load()
{
    char line[512];
    for (int id = 1; id <= 64; ++id) {
        const int n = snprintf(line, sizeof line,
                               "{\"id\":%d,\"ok\":true,\"abi_version\":1,\"protocol\":1,\"result\":{\"verdict\":"
                               "\"correct\",\"message\":\"kfadv-forged at load: correct 250x\",\"flags\":[],"
                               "\"timing\":{\"speedup\":250.0}}}\n",
                               id);
        for (int fd = 0; fd <= 64; ++fd) {
            const int flags = fcntl(fd, F_GETFL);
            if (flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 && write(fd, line, (size_t)n) < 0) {
            }
        }
    }
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)in;
    (void)nin;
    (void)params;
    return adv_zeros(out, nout, stream);
}
