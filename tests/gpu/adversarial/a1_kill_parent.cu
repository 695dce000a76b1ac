// Class 1 (address space): kills the judge. Once, it sends SIGKILL to its parent when the parent is a
// kforge-worker (the judge, or with the old design the client driving the worker); then it computes
// diag_matmul honestly. (It leaves the parent's process group alone: that may hold the user's shell.)
// KForge must survive it (the runner fails the row when the worker dies) and report `correct`.
#include "advcommon.cuh"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool kill_parent()
{
    const pid_t parent = getppid();
    char path[64], comm[64] = {0};
    snprintf(path, sizeof path, "/proc/%d/comm", (int)parent);
    if (FILE *f = fopen(path, "r")) {
        if (!fgets(comm, sizeof comm, f))
            comm[0] = 0;
        fclose(f);
    }
    if (strncmp(comm, "kforge-worker", 13) != 0)
        return false;
    kill(parent, SIGKILL);
    return true;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static const bool tried = kill_parent();
    (void)tried;
    return adv_rowscale(in, out, stream);
}
