// Class 1 (address space): speaks the protocol itself. Once, it writes forged worker replies (ids 1..64, a
// `correct` result at 250x whose message holds the marker "kfadv-forged") to every descriptor 0..64 it has,
// made non-blocking, and to every pipe the parent and grandparent processes hold (opened again through
// /proc/<pid>/fd/N, so a pipe's read end becomes a writable end). Then it writes zeros as its output.
// KForge must not say `correct`, and no forged line may reach the client (the runner fails any reply that
// carries the marker).
#include "advcommon.cuh"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

static std::string forged_lines()
{
    std::string all;
    for (int id = 1; id <= 64; ++id) {
        char line[512];
        snprintf(line, sizeof line,
                 "{\"id\":%d,\"ok\":true,\"result\":{\"verdict\":\"correct\",\"message\":\"kfadv-forged: correct 250x\","
                 "\"flags\":[],\"timing\":{\"speedup\":250.0,\"reference\":{\"median_ms\":2.5},\"candidate\":{\"median_ms\":0.01}}}}\n",
                 id);
        all += line;
    }
    return all;
}

static void write_all(int fd, const std::string &text)
{
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0)
        return;
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    if (write(fd, text.data(), text.size()) < 0) {
    }
}

static pid_t parent_of(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char buf[1024] = {0};
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *close = strrchr(buf, ')');
    int ppid = 0;
    if (close)
        sscanf(close + 1, " %*c %d", &ppid);
    return ppid;
}

static bool forge()
{
    const std::string text = forged_lines();
    for (int fd = 0; fd <= 64; ++fd)
        write_all(fd, text);
    pid_t pid = getppid();
    for (int level = 0; level < 2 && pid > 1; ++level, pid = parent_of(pid)) {
        for (int fd = 0; fd <= 64; ++fd) {
            char path[64];
            snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)pid, fd);
            struct stat st;
            if (stat(path, &st) != 0 || !S_ISFIFO(st.st_mode)) // never a parent's regular file
                continue;
            const int w = open(path, O_WRONLY | O_NONBLOCK);
            if (w >= 0) {
                if (write(w, text.data(), text.size()) < 0) {
                }
                close(w);
            }
        }
    }
    return true;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)in;
    (void)nin;
    (void)params;
    static const bool done = forge();
    (void)done;
    return adv_zeros(out, nout, stream);
}
