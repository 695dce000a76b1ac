// The sandboxed child of tst_sandbox: one mode per argv[1], answers one line on fd 3 (the channel).
//   fds                   the open descriptors ("0,1,2,3")
//   limits                cwd, then /proc/self/limits
//   tree [exit]           a child in the group and a setsid double-forked grandchild: "<child> <grandchild>";
//                         then sleeps (or, with "exit", ends and leaves both behind)
//   restricted-tree       tree exit after applyHostRestrictions ("no-seccomp" where it did not apply)
//   flood                 1.1 GiB to stdout, a 256 MiB line without newline to stderr: "<efbig out> <efbig err>"
//   connect PORT          TCP connect to 127.0.0.1:PORT: "0" or the errno name
//   restrict PORT OUTSIDE [SIBLING SHM_FILE [signal-filter]]
//                         applyHostRestrictions, then tries what it must no longer do (JSON)
#include "core/runtime/host/sandbox.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

void reply(const std::string &line)
{
    const std::string text = line + "\n";
    if (::write(3, text.data(), text.size()) < 0)
        std::_Exit(3);
}

std::string err(int e)
{
    if (e == 0)
        return "0";
    const char *name = ::strerrorname_np(e);
    return name ? name : std::to_string(e);
}

int listFds()
{
    DIR *d = ::opendir("/proc/self/fd");
    if (!d)
        return 2;
    const int own = ::dirfd(d);
    std::vector<int> fds;
    while (const dirent *e = ::readdir(d)) {
        if (e->d_name[0] == '.')
            continue;
        const int fd = std::atoi(e->d_name);
        if (fd != own)
            fds.push_back(fd);
    }
    ::closedir(d);
    std::string out;
    for (std::size_t i = 0; i < fds.size(); ++i) {
        if (i)
            out += ',';
        out += std::to_string(fds[i]);
    }
    reply(out);
    return 0;
}

int limits()
{
    char cwd[4096] = {};
    if (!::getcwd(cwd, sizeof cwd))
        return 2;
    std::ifstream in("/proc/self/limits");
    std::stringstream all;
    all << in.rdbuf();
    std::string text = all.str();
    for (char &c : text) {
        if (c == '\n')
            c = '|';
    }
    const char *tmp = std::getenv("TMPDIR");
    const char *cache = std::getenv("CUDA_CACHE_PATH");
    std::ifstream status("/proc/self/status");
    std::string capBnd, l;
    while (std::getline(status, l)) {
        if (l.rfind("CapBnd:", 0) == 0)
            capBnd = l;
    }
    reply(std::string(cwd) + "|" + capBnd + "|TMPDIR=" + (tmp ? tmp : "") + "|CUDA_CACHE_PATH=" + (cache ? cache : "")
          + "|" + text);
    return 0;
}

int tree(bool leave)
{
    int ready[2];
    if (::pipe(ready) != 0)
        return 2;
    const pid_t child = ::fork();
    if (child == 0) {
        for (;;)
            ::pause();
    }
    const pid_t middle = ::fork();
    if (middle == 0) {
        if (::fork() == 0) {
            ::setsid();
            const pid_t self = ::getpid();
            if (::write(ready[1], &self, sizeof self) != sizeof self)
                std::_Exit(2);
            for (;;)
                ::pause();
        }
        std::_Exit(0);
    }
    ::waitpid(middle, nullptr, 0);
    pid_t grandchild = 0;
    if (::read(ready[0], &grandchild, sizeof grandchild) != sizeof grandchild)
        return 2;
    reply(std::to_string(child) + " " + std::to_string(grandchild));
    if (leave)
        return 0;
    for (;;)
        ::pause();
}

int flood()
{
    std::vector<char> chunk(1 << 20, 'x');
    for (std::size_t i = 0; i < chunk.size(); i += 64)
        chunk[i] = '\n';
    long efbigOut = 0, efbigErr = 0;
    for (int i = 0; i < 1126; ++i) { // 1.1 GiB
        if (::write(1, chunk.data(), chunk.size()) < 0 && errno == EFBIG)
            ++efbigOut;
    }
    std::fill(chunk.begin(), chunk.end(), 'y');
    for (int i = 0; i < 256; ++i) { // one 256 MiB line, no newline
        if (::write(2, chunk.data(), chunk.size()) < 0 && errno == EFBIG)
            ++efbigErr;
    }
    reply(std::to_string(efbigOut) + " " + std::to_string(efbigErr));
    return 0;
}

int connectTo(int port)
{
    const int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return reply("socket:" + err(errno)), 0;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const int rc = ::connect(s, reinterpret_cast<const sockaddr *>(&addr), sizeof addr);
    reply(rc == 0 ? "0" : err(errno));
    ::close(s);
    return 0;
}

// `sibling`: a process of the judge's outside this host's group; `shmFile`: a file the judge made in /dev/shm;
// `signalFilter`: the seccomp filter scopes signals even where Landlock does.
int restrict(int port, const std::string &outside, pid_t sibling, const std::string &shmFile, bool signalFilter)
{
    using kforge::runtime::host::HostRestrictions;
    HostRestrictions r;
    r.signalFilter = signalFilter;
    const auto p = kforge::runtime::host::applyHostRestrictions(r);
    nlohmann::ordered_json j;
    j["protections"] = p.toJson();
    const pid_t judge = ::getppid();
    // Denied calls only where a filter stands in the way: without one, ptrace would really stop the test.
    if (p.seccomp) {
        j["ptrace"] = err(::ptrace(PTRACE_ATTACH, judge, nullptr, nullptr) == 0 ? 0 : errno);
        char buf[16];
        iovec local{buf, sizeof buf}, remote{reinterpret_cast<void *>(0x400000), sizeof buf};
        j["process_vm_readv"] = err(::process_vm_readv(judge, &local, 1, &remote, 1, 0) >= 0 ? 0 : errno);
        const int inet = ::socket(AF_INET, SOCK_STREAM, 0);
        j["socket_inet"] = err(inet >= 0 ? 0 : errno);
        const int unixSock = ::socket(AF_UNIX, SOCK_STREAM, 0);
        j["socket_unix"] = err(unixSock >= 0 ? 0 : errno);
        j["unshare_net"] = err(::unshare(CLONE_NEWNET) == 0 ? 0 : errno);
        j["kill_judge"] = err(::kill(judge, 0) == 0 ? 0 : errno);
        j["kill_all"] = err(::kill(-1, 0) == 0 ? 0 : errno);
        if (sibling > 0) {
            j["kill_sibling"] = err(::kill(sibling, 0) == 0 ? 0 : errno);
            j["kill_sibling_group"] = err(::kill(-::getpgid(sibling), 0) == 0 ? 0 : errno);
            j["tgkill_sibling"] = err(::syscall(SYS_tgkill, sibling, sibling, 0) == 0 ? 0 : errno);
        }
        j["kill_own_group"] = err(::kill(0, 0) == 0 ? 0 : errno);
        j["kill_self"] = err(::kill(::getpid(), 0) == 0 ? 0 : errno);
        j["tgkill_self"] = err(::syscall(SYS_tgkill, ::getpid(), ::syscall(SYS_gettid), 0) == 0 ? 0 : errno);
        j["setsid"] = err(::setsid() >= 0 ? 0 : errno);
        const pid_t group = ::getpgrp();
        j["setpgid"] = err(::setpgid(0, 0) == 0 ? 0 : errno);
        j["setpgid_group"] = ::getpgrp() == group ? "same" : "changed";
        const pid_t child = ::fork(); // clone3 answers ENOSYS: the C library must fall back to clone
        if (child == 0)
            std::_Exit(7);
        int status = 0;
        j["fork"] = child > 0 && ::waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 7
                        ? "0"
                        : err(errno);
    }
    if (p.landlock) {
        // Landlock also confines ptrace-mode access: the judge's memory through /proc is out of reach.
        const int mem = ::open(("/proc/" + std::to_string(judge) + "/mem").c_str(), O_RDONLY | O_CLOEXEC);
        j["read_judge_mem"] = err(mem >= 0 ? 0 : errno);
        const int out = ::open((outside + "/written-by-sandbox").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        j["write_outside"] = err(out >= 0 ? 0 : errno);
        const int in = ::open("inside.txt", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        j["write_inside"] = err(in >= 0 ? 0 : errno);
        const int dev = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        j["write_dev_null"] = err(dev >= 0 ? 0 : errno);
        // /dev/shm: nothing created (no channel to a later evaluation, nothing left behind); the judge's files
        // (its IPC events) stay writable.
        const std::string mine = "/dev/shm/kforge-sandbox-" + std::to_string(::getpid());
        const int shm = ::open(mine.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        j["create_dev_shm"] = err(shm >= 0 ? 0 : errno);
        if (shm >= 0)
            ::unlink(mine.c_str());
        j["mkdir_dev"] = err(::mkdir("/dev/kforge-sandbox-dir", 0700) == 0 ? 0 : errno);
        if (!shmFile.empty()) {
            const int existing = ::open(shmFile.c_str(), O_WRONLY | O_CLOEXEC);
            j["write_dev_shm_existing"] = err(existing >= 0 ? 0 : errno);
            j["unlink_dev_shm_existing"] = err(::unlink(shmFile.c_str()) == 0 ? 0 : errno);
        }
        const int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (s >= 0) { // seccomp off: Landlock ABI 4 alone refuses the TCP connect
            sockaddr_in addr{};
            addr.sin_family = AF_INET;
            addr.sin_port = htons(static_cast<uint16_t>(port));
            addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            j["connect_tcp"] = err(::connect(s, reinterpret_cast<const sockaddr *>(&addr), sizeof addr) == 0 ? 0 : errno);
        }
    }
    reply(j.dump());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "fds")
        return listFds();
    if (mode == "limits")
        return limits();
    if (mode == "tree")
        return tree(argc > 2 && std::string(argv[2]) == "exit");
    if (mode == "restricted-tree") { // the same after applyHostRestrictions: setsid is refused
        const auto p = kforge::runtime::host::applyHostRestrictions({});
        if (!p.seccomp)
            return reply("no-seccomp"), 0;
        return tree(true);
    }
    if (mode == "flood")
        return flood();
    if (mode == "connect" && argc > 2)
        return connectTo(std::atoi(argv[2]));
    if (mode == "restrict" && argc > 3)
        return restrict(std::atoi(argv[2]), argv[3], argc > 4 ? std::atoi(argv[4]) : 0, argc > 5 ? argv[5] : "",
                        argc > 6 && std::string(argv[6]) == "signal-filter");
    std::fprintf(stderr, "sandbox_payload: unknown mode\n");
    return 2;
}
