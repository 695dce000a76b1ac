// The candidate host's sandbox (core/runtime/host, issue 19) without a GPU: descriptors, process tree,
// output caps, rlimits, temp dir, network namespace, Landlock and seccomp. Prints what the kernel here allowed.
#include "core/runtime/host/proctree.h"
#include "core/runtime/host/sandbox.h"
#include "tests/core/runtime/check.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <thread>

using namespace kforge::runtime::host;
namespace fs = std::filesystem;

namespace {

fs::path g_scratch;

SandboxOptions optionsFor(std::vector<std::string> args)
{
    SandboxOptions o;
    o.argv = {KFORGE_SANDBOX_PAYLOAD};
    o.argv.insert(o.argv.end(), args.begin(), args.end());
    o.env = {"PATH=/usr/bin:/bin", "LANG=C", "TMPDIR=/somewhere/else"};
    o.tempParent = g_scratch;
    return o;
}

std::unique_ptr<SandboxedProcess> start(const SandboxOptions &o)
{
    std::string error;
    auto p = SandboxedProcess::spawn(o, error);
    KF_CHECK_MSG(p != nullptr, error);
    return p;
}

// One line from the channel, within `seconds`.
std::string readLine(SandboxedProcess &p, int seconds = 20)
{
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd pfd{p.channelFd(), POLLIN, 0};
        if (::poll(&pfd, 1, 100) <= 0)
            continue;
        char c;
        const ssize_t n = ::read(p.channelFd(), &c, 1);
        if (n <= 0)
            break;
        if (c == '\n')
            return line;
        line += c;
    }
    return line;
}

bool gone(pid_t pid)
{
    return !fs::exists("/proc/" + std::to_string(pid));
}

bool dead(pid_t pid) // gone, or a zombie that nobody here has to reap
{
    ProcInfo info;
    return !readProcStat(pid, info) || info.state == 'Z';
}

void testDescriptors()
{
    // A descriptor the test leaves inheritable must not reach the child.
    const int leak = ::open("/dev/null", O_RDONLY);
    auto p = start(optionsFor({"fds"}));
    if (!p)
        return;
    const std::string fds = readLine(*p);
    KF_CHECK_MSG(fds == "0,1,2,3", fds);
    const auto &pr = p->protections();
    KF_CHECK(pr.ownProcessGroup && pr.noInheritedFds && pr.rlimits && pr.privateTmp && pr.subreaper);
    KF_CHECK(::getpgid(p->pid()) == p->pid());
    ::close(leak);
    std::printf("protections here: %s\n", pr.toJson().dump().c_str());
    KF_CHECK(Protections::fromJson(pr.toJson()).toJson() == pr.toJson());
}

void testLimitsAndTempDir()
{
    auto o = optionsFor({"limits"});
    o.cpuSeconds = 77;
    o.maxOpenFiles = 99;
    o.fileSizeBytes = 5u << 20;
    o.outputCapBytes = 1u << 20;
    auto p = start(o);
    if (!p)
        return;
    const fs::path dir = p->tempDir();
    const std::string text = readLine(*p);
    const std::string real = fs::canonical(dir).string();
    // CapBnd without CAP_SYS_PTRACE (bit 19) where the test is privileged.
    const auto bnd = text.find("CapBnd:");
    KF_CHECK_MSG(bnd != std::string::npos, text.substr(0, 300));
    const unsigned long long caps = std::strtoull(text.c_str() + bnd + 7, nullptr, 16);
    KF_CHECK_MSG((caps & (1ull << 19)) == 0 || ::geteuid() != 0, text.substr(0, 300));
    KF_CHECK_MSG(text.rfind(real + "|CapBnd:", 0) == 0, text.substr(0, 300));
    const std::string rest = text.substr(text.find('|', real.size() + 1));
    KF_CHECK_MSG(rest.rfind("|TMPDIR=" + dir.string() + "|CUDA_CACHE_PATH=" + dir.string() + "/cuda-cache|", 0) == 0,
                 text.substr(0, 300));
    KF_CHECK_CONTAINS(text, "Max cpu time              77                   82                   seconds");
    KF_CHECK_CONTAINS(text, "Max file size             5242880              5242880              bytes");
    KF_CHECK_CONTAINS(text, "Max core file size        0                    0                    bytes");
    KF_CHECK_CONTAINS(text, "Max open files            99                   99                   files");
    KF_CHECK(dir.parent_path() == g_scratch && fs::is_directory(dir));
    p.reset();
    KF_CHECK_MSG(!fs::exists(dir), dir.string());
}

void testTree(bool hostLeaves)
{
    auto p = start(optionsFor(hostLeaves ? std::vector<std::string>{"tree", "exit"} : std::vector<std::string>{"tree"}));
    if (!p)
        return;
    std::istringstream in(readLine(*p));
    pid_t child = 0, grandchild = 0;
    in >> child >> grandchild;
    KF_CHECK_MSG(child > 0 && grandchild > 0, "no pids from the payload");
    if (child <= 0 || grandchild <= 0)
        return;
    const pid_t host = p->pid();
    if (hostLeaves) {
        while (p->running())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        ProcInfo info;
        KF_CHECK(readProcStat(grandchild, info) && info.ppid == ::getpid()); // reparented to the subreaper
    }
    KF_CHECK(::kill(child, 0) == 0 && !dead(child));
    KF_CHECK(::kill(grandchild, 0) == 0 && !dead(grandchild));
    ProcInfo g;
    KF_CHECK(readProcStat(grandchild, g) && g.session == grandchild && g.pgrp != host); // setsid: out of the group
    const bool marked = p->protections().network; // the namespace marks the tree once the host is gone
    if (hostLeaves && !marked) {
        std::printf("NOTE no namespace here: a setsid grandchild of a host that already ended is not "
                    "attributable; killing it by hand\n");
        ::kill(grandchild, SIGKILL);
    }
    const auto t0 = std::chrono::steady_clock::now();
    p->killTree();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    KF_CHECK_MSG(ms < 3000, std::to_string(ms) + " ms");
    KF_CHECK(p->exitStatus().has_value());
    // Dead at once; reaped (no zombie left to this subreaper) shortly after.
    KF_CHECK(dead(host) && dead(child) && dead(grandchild));
    for (int i = 0; i < 100 && !(gone(child) && gone(grandchild)); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        reapStrays();
    }
    KF_CHECK_MSG(gone(child) && gone(grandchild) && gone(host),
                 "pids " + std::to_string(child) + " " + std::to_string(grandchild));
}

// A host's tree, once killed, is never marked again: its network namespace's inode number is free after it
// ended and a newer host's namespace may get it, which a second killTree (the destructor's) must not take
// for this one's (seen on the H200: a fresh host killed while its batches were mapped).
void testNamespaceReuse()
{
    auto old = start(optionsFor({"tree"}));
    if (!old)
        return;
    readLine(*old);
    const auto oldNet = [&] {
        struct stat st {
        };
        return ::stat(("/proc/" + std::to_string(old->pid()) + "/ns/net").c_str(), &st) == 0 ? st.st_ino : 0;
    }();
    old->killTree();
    std::vector<std::unique_ptr<SandboxedProcess>> fresh;
    bool reused = false;
    for (int i = 0; i < 8; ++i) {
        auto p = start(optionsFor({"tree"}));
        if (!p)
            return;
        readLine(*p);
        struct stat st {
        };
        reused = reused
                 || (::stat(("/proc/" + std::to_string(p->pid()) + "/ns/net").c_str(), &st) == 0 && st.st_ino == oldNet);
        fresh.push_back(std::move(p));
    }
    std::printf("namespace reuse: %s\n", reused ? "a fresh host got the old host's netns inode" : "not seen this run");
    old.reset(); // its destructor's killTree
    for (auto &p : fresh) {
        KF_CHECK_MSG(p->running(), "a fresh host (pid " + std::to_string(p->pid()) + ") was killed with an old one");
        p->killTree();
    }
}

// After the restrictions, without a namespace: setsid is refused, so the orphans of a host that ended stay in its
// process group and killTree still finds them.
void testRestrictedTree()
{
    auto o = optionsFor({"restricted-tree"});
    o.isolateNetwork = false;
    auto p = start(o);
    if (!p)
        return;
    const std::string line = readLine(*p);
    if (line == "no-seccomp") {
        std::printf("SKIP-NOTE seccomp not applied here: restricted tree not tested\n");
        return;
    }
    std::istringstream in(line);
    pid_t child = 0, grandchild = 0;
    in >> child >> grandchild;
    KF_CHECK_MSG(child > 0 && grandchild > 0, line);
    if (child <= 0 || grandchild <= 0)
        return;
    while (p->running())
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ProcInfo g;
    KF_CHECK(readProcStat(grandchild, g) && g.pgrp == p->pid() && g.ppid == ::getpid() && !dead(grandchild));
    p->killTree();
    for (int i = 0; i < 100 && !(gone(child) && gone(grandchild)); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        reapStrays();
    }
    KF_CHECK_MSG(gone(child) && gone(grandchild), std::to_string(child) + " " + std::to_string(grandchild));
}

void testOutputCaps()
{
    auto o = optionsFor({"flood"});
    o.outputCapBytes = 1u << 20;
    o.fileSizeBytes = 4u << 20;
    const auto t0 = std::chrono::steady_clock::now();
    auto p = start(o);
    if (!p)
        return;
    const std::string counts = readLine(*p, 60);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    KF_CHECK_MSG(s < 20, std::to_string(s) + " s");
    long efbigOut = 0, efbigErr = 0;
    std::istringstream(counts) >> efbigOut >> efbigErr;
    KF_CHECK_MSG(efbigOut > 1000 && efbigErr > 200, counts); // the writes beyond the limit failed, none blocked
    bool truncOut = false, truncErr = false;
    const std::string out = p->readStdout(truncOut);
    const std::string err = p->readStderr(truncErr);
    KF_CHECK(truncOut && truncErr);
    KF_CHECK(out.size() == o.outputCapBytes && err.size() == o.outputCapBytes);
    KF_CHECK(out.substr(0, 65) == "\n" + std::string(63, 'x') + "\n" && err.find_first_not_of('y') == std::string::npos);
    KF_CHECK(fs::file_size(p->tempDir() / "stdout.txt") <= o.fileSizeBytes);
    std::printf("flood: 1.1 GiB + 256 MiB written in %.2f s, kept %zu + %zu bytes\n", s, out.size(), err.size());

    auto quiet = start(optionsFor({"fds"}));
    if (!quiet)
        return;
    readLine(*quiet);
    while (quiet->running())
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    bool t = true;
    KF_CHECK(quiet->readStdout(t).empty() && !t);
    KF_CHECK(quiet->exitStatus() && WIFEXITED(*quiet->exitStatus()) && WEXITSTATUS(*quiet->exitStatus()) == 0);
}

int listen127(int &port)
{
    const int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (s < 0 || ::bind(s, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 || ::listen(s, 8) != 0
        || ::getsockname(s, reinterpret_cast<sockaddr *>(&addr), &len) != 0)
        return -1;
    port = ntohs(addr.sin_port);
    return s;
}

void testNetwork(int port)
{
    auto open = optionsFor({"connect", std::to_string(port)});
    open.isolateNetwork = false;
    auto control = start(open);
    if (!control)
        return;
    KF_CHECK_MSG(readLine(*control) == "0", "the test server is not reachable without the namespace");
    KF_CHECK(!control->protections().network);

    auto p = start(optionsFor({"connect", std::to_string(port)}));
    if (!p)
        return;
    const std::string result = readLine(*p);
    const auto &pr = p->protections();
    std::printf("%s -> connect %s\n", pr.notes.empty() ? "" : pr.notes.back().c_str(), result.c_str());
    if (pr.network)
        KF_CHECK_MSG(result != "0", "connected to the judge's loopback from the network namespace");
    else
        std::printf("SKIP-NOTE network namespace not allowed here; the host shares the network\n");
}

// `signalFilter`: the seccomp filter keeps signals in the host's group (as on kernels whose Landlock cannot).
void testRestrictions(int port, bool signalFilter)
{
    const fs::path outside = g_scratch / "outside";
    fs::create_directories(outside);
    // A sibling: a process of the judge's in a group of its own (as the reference's host is to a candidate's).
    const pid_t sibling = ::fork();
    if (sibling == 0) {
        ::setpgid(0, 0);
        ::pause();
        std::_Exit(0);
    }
    // A file of the judge's in /dev/shm (CUDA IPC events live in such files): the host may write it, not remove it.
    const std::string shm = "/dev/shm/kforge-judge-" + std::to_string(::getpid());
    const bool haveShm = ::close(::open(shm.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600)) == 0;
    auto p = start(optionsFor({"restrict", std::to_string(port), outside.string(), std::to_string(sibling),
                               haveShm ? shm : std::string(), signalFilter ? "signal-filter" : "landlock"}));
    const auto cleanup = [&] {
        ::kill(sibling, SIGKILL);
        ::waitpid(sibling, nullptr, 0);
        if (haveShm)
            ::unlink(shm.c_str());
    };
    if (!p)
        return cleanup();
    const std::string line = readLine(*p);
    const bool siblingAlive = ::kill(sibling, 0) == 0;
    cleanup();
    const auto j = nlohmann::json::parse(line, nullptr, false);
    KF_CHECK_MSG(j.is_object(), line);
    if (!j.is_object())
        return;
    const auto pr = Protections::fromJson(j["protections"]);
    struct utsname u {
    };
    ::uname(&u);
    std::printf("kernel %s (%s): landlock %s, seccomp %s\n", u.release,
                signalFilter ? "signals by seccomp" : "signals by Landlock where it can", pr.landlock ? "applied" : "not applied",
                pr.seccomp ? "applied" : "not applied");
    KF_CHECK_MSG(siblingAlive, "the sibling outlived the host's attempts");
    const bool landlockScopes = std::any_of(pr.notes.begin(), pr.notes.end(), [](const std::string &n) {
        return n.find("no signals outside the sandbox") != std::string::npos;
    });
    if (pr.seccomp || landlockScopes) {
        // Nothing outside the host's group: not the sibling, not its group, by kill or tgkill; its own group and
        // itself it may signal.
        for (const char *k : {"kill_sibling", "kill_sibling_group", "tgkill_sibling"})
            KF_CHECK_MSG(j.value(k, "") == "EPERM", std::string(k) + ": " + j.value(k, "?") + " in " + line);
        for (const char *k : {"kill_own_group", "kill_self", "tgkill_self"})
            KF_CHECK_MSG(j.value(k, "") == "0", std::string(k) + ": " + j.value(k, "?") + " in " + line);
    } else {
        std::printf("SKIP-NOTE neither seccomp nor a Landlock signal scope here\n");
    }
    for (const auto &n : pr.notes)
        std::printf("  %s\n", n.c_str());
    if (pr.seccomp) {
        for (const char *k :
             {"ptrace", "process_vm_readv", "socket_inet", "unshare_net", "kill_judge", "kill_all", "setsid"})
            KF_CHECK_MSG(j.value(k, "") == "EPERM", std::string(k) + ": " + j.value(k, "?"));
        // setpgid answers 0 (build tools' posix_spawn goes on) and the group stays the tree's.
        KF_CHECK_MSG(j.value("setpgid", "") == "0" && j.value("setpgid_group", "") == "same", line);
        KF_CHECK_MSG(j.value("socket_unix", "") == "0", line);
        KF_CHECK_MSG(j.value("fork", "") == "0", line);
    } else {
        std::printf("SKIP-NOTE seccomp not applied here\n");
    }
    if (pr.landlock) {
        KF_CHECK_MSG(j.value("write_outside", "") == "EACCES", line);
        KF_CHECK_MSG(j.value("read_judge_mem", "") == "EACCES", line);
        KF_CHECK_MSG(j.value("write_inside", "") == "0" && j.value("write_dev_null", "") == "0", line);
        KF_CHECK(!fs::exists(outside / "written-by-sandbox"));
        KF_CHECK_MSG(j.value("create_dev_shm", "") == "EACCES" && j.value("mkdir_dev", "") == "EACCES", line);
        if (haveShm)
            KF_CHECK_MSG(j.value("write_dev_shm_existing", "") == "0"
                             && j.value("unlink_dev_shm_existing", "") == "EACCES",
                         line);
    } else {
        std::printf("SKIP-NOTE landlock not applied here\n");
    }
}

// --gpu: the CUDA driver inside the sandbox (network namespace, rlimits), before and after the restrictions.
void testCuda()
{
    SandboxOptions o;
    o.argv = {KFORGE_SANDBOX_CUDA_PAYLOAD};
    o.env = {"PATH=/usr/bin:/bin", "LANG=C"};
    for (const char *keep : {"CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH"}) {
        if (const char *v = std::getenv(keep))
            o.env.push_back(std::string(keep) + "=" + v);
    }
    o.tempParent = g_scratch;
    auto p = start(o);
    if (!p)
        return;
    const std::string line = readLine(*p, 120);
    const auto j = nlohmann::json::parse(line, nullptr, false);
    bool truncated = false;
    KF_CHECK_MSG(j.is_object(), line + " / stderr: " + p->readStderr(truncated));
    if (!j.is_object())
        return;
    if (j.contains("skip"))
        kforge::runtime::test::skip("no GPU: " + j["skip"].get<std::string>());
    const auto pr = Protections::fromJson(j["protections"]);
    std::printf("GPU %s in the sandbox: network %s, landlock %s, seccomp %s; before: %s, after: %s\n",
                j.value("device", "?").c_str(), p->protections().network ? "isolated" : "shared", pr.landlock ? "on" : "off",
                pr.seccomp ? "on" : "off", j.value("before", "?").c_str(), j.value("after", "?").c_str());
    for (const auto &n : p->protections().notes)
        std::printf("  %s\n", n.c_str());
    for (const auto &n : pr.notes)
        std::printf("  %s\n", n.c_str());
    KF_CHECK_MSG(j.value("before", "") == "ok", line);
    KF_CHECK_MSG(j.value("after", "") == "ok", line);
    KF_CHECK(fs::exists(p->tempDir() / "cuda-cache")); // the JIT cache went to the private directory
}

// --unprivileged: run as nobody (from root, as CI does), so the user-namespace path is taken.
void dropPrivileges()
{
    if (::geteuid() != 0)
        return;
    const gid_t nobody = 65534;
    if (::setgroups(0, nullptr) != 0 || ::setresgid(nobody, nobody, nobody) != 0 || ::setresuid(nobody, nobody, nobody) != 0)
        kforge::runtime::test::skip("cannot become nobody here");
    if (::access(KFORGE_SANDBOX_PAYLOAD, X_OK) != 0)
        kforge::runtime::test::skip("nobody cannot execute " + std::string(KFORGE_SANDBOX_PAYLOAD));
}

} // namespace

int main(int argc, char **argv)
{
    bool gpu = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--unprivileged")
            dropPrivileges();
        gpu = gpu || arg == "--gpu";
    }
    std::printf("running as uid %d\n", static_cast<int>(::geteuid()));
    becomeSubreaper();
    char pattern[] = "/tmp/tst_sandbox-XXXXXX";
    if (!::mkdtemp(pattern))
        kforge::runtime::test::skip("no temp dir");
    g_scratch = pattern;
    if (gpu) {
        testCuda();
        std::error_code ec;
        fs::remove_all(g_scratch, ec);
        return kforge::runtime::test::finish("tst_sandbox --gpu");
    }
    int port = 0;
    const int server = listen127(port);
    KF_CHECK(server >= 0);

    testDescriptors();
    testLimitsAndTempDir();
    testTree(false);
    testTree(true);
    testNamespaceReuse();
    testRestrictedTree();
    testOutputCaps();
    testNetwork(port);
    testRestrictions(port, false);
    testRestrictions(port, true);

    ::close(server);
    std::error_code ec;
    fs::remove_all(g_scratch, ec);
    return kforge::runtime::test::finish("tst_sandbox");
}
