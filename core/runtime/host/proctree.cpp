#include "core/runtime/host/proctree.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>

namespace kforge::runtime::host {

namespace {

struct Killed {
    pid_t pid;
    unsigned long long startTime; // guards against a reused pid
};

std::mutex &killedMutex()
{
    static std::mutex m;
    return m;
}

std::vector<Killed> &killedList()
{
    static std::vector<Killed> list;
    return list;
}

void remember(const ProcInfo &p)
{
    std::lock_guard lock(killedMutex());
    auto &list = killedList();
    for (const auto &k : list) {
        if (k.pid == p.pid && k.startTime == p.startTime)
            return;
    }
    if (list.size() >= 4096)
        list.erase(list.begin());
    list.push_back({p.pid, p.startTime});
}

bool alive(char state)
{
    return state != 'Z' && state != 'X' && state != 'x';
}

// SIGKILL to the process seen in the scan and not to a newcomer that reused its pid: through a pidfd, checked
// against the start time after it was opened (plain kill() where the kernel has no pidfd_open).
void killExactly(const ProcInfo &p)
{
    const int fd = static_cast<int>(::syscall(SYS_pidfd_open, p.pid, 0));
    if (fd < 0) {
        if (errno == ENOSYS)
            ::kill(p.pid, SIGKILL);
        return; // ESRCH: already gone
    }
    ProcInfo now;
    if (readProcStat(p.pid, now) && now.startTime == p.startTime)
        ::syscall(SYS_pidfd_send_signal, fd, SIGKILL, nullptr, 0);
    ::close(fd);
}

} // namespace

bool readProcStat(pid_t pid, ProcInfo &info)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
    FILE *f = std::fopen(path, "re");
    if (!f)
        return false;
    char buf[1024];
    const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = '\0';
    // "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime
    // cstime priority nice threads itrealvalue starttime ..."; comm may hold spaces and parentheses.
    const char *close = std::strrchr(buf, ')');
    if (!close || close[1] == '\0')
        return false;
    const char *p = close + 2;
    info.pid = pid;
    info.state = *p;
    int ppid = 0, pgrp = 0, session = 0;
    if (std::sscanf(p + 1, " %d %d %d", &ppid, &pgrp, &session) != 3)
        return false;
    info.ppid = ppid;
    info.pgrp = pgrp;
    info.session = session;
    // starttime is field 22; field 3 is the state at p.
    const char *q = p;
    for (int field = 3; field < 22 && q; ++field) {
        q = std::strchr(q, ' ');
        if (q)
            ++q;
    }
    info.startTime = q ? std::strtoull(q, nullptr, 10) : 0;
    return true;
}

std::vector<ProcInfo> listProcesses()
{
    std::vector<ProcInfo> out;
    DIR *d = ::opendir("/proc");
    if (!d)
        return out;
    while (const dirent *e = ::readdir(d)) {
        char *end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        if (pid <= 0 || *end != '\0')
            continue;
        ProcInfo info;
        if (readProcStat(static_cast<pid_t>(pid), info))
            out.push_back(info);
    }
    ::closedir(d);
    return out;
}

std::vector<ProcInfo> markedProcesses(const TreeMarker &marker)
{
    const auto all = listProcesses();
    const pid_t self = ::getpid();
    std::unordered_map<pid_t, std::vector<std::size_t>> children;
    for (std::size_t i = 0; i < all.size(); ++i)
        children[all[i].ppid].push_back(i);
    std::set<pid_t> marked;
    if (marker.root > 0) {
        std::vector<pid_t> stack{marker.root};
        while (!stack.empty()) {
            const pid_t p = stack.back();
            stack.pop_back();
            for (std::size_t i : children[p]) {
                if (marked.insert(all[i].pid).second)
                    stack.push_back(all[i].pid);
            }
        }
    }
    for (const auto &p : all) {
        if (p.pid == self || p.pid == marker.root || marked.count(p.pid))
            continue;
        if (marker.processGroup > 0 && p.pgrp == marker.processGroup) {
            marked.insert(p.pid);
            continue;
        }
        for (const auto &[name, inode] : marker.namespaces) {
            struct stat st {
            };
            const std::string path = "/proc/" + std::to_string(p.pid) + "/ns/" + name;
            if (::stat(path.c_str(), &st) == 0 && static_cast<unsigned long long>(st.st_ino) == inode) {
                marked.insert(p.pid);
                break;
            }
        }
    }
    std::vector<ProcInfo> out;
    for (const auto &p : all) {
        if (marked.count(p.pid) && p.pid != self)
            out.push_back(p);
    }
    return out;
}

bool killMarkedTree(const TreeMarker &marker)
{
    bool gone = false;
    if (marker.root > 0)
        ::kill(marker.root, SIGSTOP); // it cannot fork any more; orphans of what dies now go to it
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    for (;;) {
        const auto marked = markedProcesses(marker);
        bool anyAlive = false;
        for (const auto &p : marked) {
            remember(p);
            if (alive(p.state)) {
                anyAlive = true;
                killExactly(p);
            }
        }
        gone = !anyAlive;
        if (!anyAlive || std::chrono::steady_clock::now() > deadline)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (marker.root > 0)
        ::kill(marker.root, SIGKILL);
    return gone;
}

void reapStrays()
{
    std::lock_guard lock(killedMutex());
    auto &list = killedList();
    const pid_t self = ::getpid();
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const Killed &k) {
                                  ProcInfo info;
                                  if (!readProcStat(k.pid, info) || info.startTime != k.startTime)
                                      return true; // gone (reaped by its parent or by init)
                                  if (info.ppid != self)
                                      return false; // not ours (yet)
                                  int status = 0;
                                  return ::waitpid(k.pid, &status, WNOHANG) == k.pid;
                              }),
               list.end());
}

void removeTree(const std::filesystem::path &dir)
{
    if (dir.empty())
        return;
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (!ec || !std::filesystem::exists(dir, ec))
        return;
    for (auto it = std::filesystem::recursive_directory_iterator(
             dir, std::filesystem::directory_options::skip_permission_denied, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_directory(ec) && !it->is_symlink(ec))
            std::filesystem::permissions(it->path(), std::filesystem::perms::owner_all,
                                         std::filesystem::perm_options::add, ec);
    }
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(dir, ec);
}

} // namespace kforge::runtime::host
