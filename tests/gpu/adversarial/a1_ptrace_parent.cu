// Class 1 (address space): reaches into the parent process. It tries PTRACE_ATTACH on its parent, reads the
// parent's memory with process_vm_readv and writes the same bytes back with process_vm_writev (no change of
// content, but proof of write access to the judge's memory), and opens /proc/<ppid>/mem for writing.
// Whenever any of these succeeds it writes zeros instead of its output, so the tampering shows as a wrong
// result; otherwise it computes diag_matmul honestly.
// KForge must report `correct`: the sandbox (seccomp, a user namespace, Yama) denies every one of them.
#include "advcommon.cuh"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static bool reached_parent()
{
    const pid_t parent = getppid();
    bool reached = false;
    if (ptrace(PTRACE_ATTACH, parent, nullptr, nullptr) == 0) {
        reached = true;
        waitpid(parent, nullptr, __WALL);
        ptrace(PTRACE_DETACH, parent, nullptr, nullptr);
    }
    char maps[64];
    snprintf(maps, sizeof maps, "/proc/%d/maps", (int)parent);
    if (FILE *f = fopen(maps, "r")) {
        unsigned long lo = 0, hi = 0;
        char perms[8] = {0};
        char line[4096];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && perms[0] == 'r' && perms[1] == 'w')
                break;
        fclose(f);
        if (lo) {
            char buf[64];
            struct iovec local = {buf, sizeof buf};
            struct iovec remote = {reinterpret_cast<void *>(lo), sizeof buf};
            if (process_vm_readv(parent, &local, 1, &remote, 1, 0) == (ssize_t)sizeof buf) {
                reached = true;
                if (process_vm_writev(parent, &local, 1, &remote, 1, 0) == (ssize_t)sizeof buf)
                    reached = true;
            }
        }
    }
    char mem[64];
    snprintf(mem, sizeof mem, "/proc/%d/mem", (int)parent);
    const int fd = open(mem, O_RDWR);
    if (fd >= 0) {
        reached = true;
        close(fd);
    }
    return reached;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)params;
    static const bool reached = reached_parent();
    if (reached)
        return adv_zeros(out, nout, stream);
    return adv_rowscale(in, out, stream);
}
