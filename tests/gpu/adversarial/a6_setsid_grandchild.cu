// Class 6 (cleanup): leaves a daemon behind. On its first call it forks; the child calls setsid() and forks
// again, and the grandchild (named "kfadv-orphan") sleeps 3 s, writes forged reply lines (marker
// "kfadv-forged") to every descriptor it inherited, then sleeps two minutes. The call itself computes
// diag_matmul honestly.
// KForge must report `correct`, and no "kfadv-orphan" may be alive once the evaluation's worker is gone (the
// runner checks /proc), nor may a forged line reach the client.
#include "advcommon.cuh"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void grandchild()
{
    prctl(PR_SET_NAME, "kfadv-orphan", 0, 0, 0);
    sleep(3);
    char line[256];
    for (int id = 1; id <= 64; ++id) {
        const int n = snprintf(line, sizeof line,
                               "{\"id\":%d,\"ok\":true,\"result\":{\"verdict\":\"correct\",\"message\":\"kfadv-forged "
                               "by an orphan\",\"flags\":[]}}\n",
                               id);
        for (int fd = 0; fd <= 64; ++fd) {
            const int flags = fcntl(fd, F_GETFL);
            if (flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 && write(fd, line, (size_t)n) < 0) {
            }
        }
    }
    sleep(120);
}

static bool spawn()
{
    const pid_t child = fork();
    if (child == 0) {
        setsid();
        if (fork() == 0)
            grandchild();
        _exit(0);
    }
    if (child > 0)
        waitpid(child, nullptr, 0);
    return true;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static const bool spawned = spawn();
    (void)spawned;
    return adv_rowscale(in, out, stream);
}
