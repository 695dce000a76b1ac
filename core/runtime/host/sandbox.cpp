#include "core/runtime/host/sandbox.h"

#include "core/runtime/host/proctree.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

namespace kforge::runtime::host {

namespace {

// What the child did between fork and exec, written as one record on a CLOEXEC pipe just before execve (and a
// second one with execErrno when execve failed). 0 = done; otherwise the errno of the step that failed.
struct ChildReport {
    int pgidErrno = 0;
    int subreaperErrno = 0;
    int netErrno = 0;   // the last attempt's errno
    int netStage = 0;   // 0 not tried, 1 CLONE_NEWNET, 2 CLONE_NEWUSER|CLONE_NEWNET, 3 setgroups, 4 uid_map, 5 gid_map
    int netApplied = 0; // 1 net only (privileged), 2 user + net
    int rlimitErrno = 0;
    int rlimitWhich = 0; // RLIMIT_* that failed
    int fdErrno = 0;
    int closeRangeErrno = 0; // close_range failed: closed one by one instead
    int chdirErrno = 0;
    int capsDropped = 0; // 1: PR_CAPBSET_DROP took (a privileged host)
    int execErrno = 0;
};

bool writeAll(int fd, const char *data, std::size_t n)
{
    while (n > 0) {
        const ssize_t w = ::write(fd, data, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += w;
        n -= static_cast<std::size_t>(w);
    }
    return true;
}

// Async-signal-safe: writes a decimal number into buf, returns the length.
std::size_t formatUnsigned(char *buf, unsigned long v)
{
    char tmp[24];
    std::size_t n = 0;
    do {
        tmp[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    for (std::size_t i = 0; i < n; ++i)
        buf[i] = tmp[n - 1 - i];
    return n;
}

// "<id> <id> 1\n" into /proc/self/{uid,gid}_map: the child keeps its own ids inside the new user namespace, so
// files it owns outside (and /dev/nvidia*) keep their meaning.
bool writeIdMap(const char *file, unsigned long id)
{
    char line[64];
    std::size_t n = formatUnsigned(line, id);
    line[n++] = ' ';
    n += formatUnsigned(line + n, id);
    line[n++] = ' ';
    line[n++] = '1';
    line[n++] = '\n';
    const int fd = ::open(file, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = writeAll(fd, line, n);
    ::close(fd);
    return ok;
}

void isolateNetwork(ChildReport &r)
{
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    // Privileged (root with CAP_SYS_ADMIN, as in CI containers): a network namespace alone, which keeps the
    // process's capabilities (CUPTI profiling needs them). Otherwise an unprivileged user namespace owns it.
    r.netStage = 1;
    if (::unshare(CLONE_NEWNET) == 0) {
        r.netApplied = 1;
        r.netErrno = 0;
        return;
    }
    r.netErrno = errno;
    r.netStage = 2;
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
        r.netErrno = errno;
        return;
    }
    // The namespace exists now; without the maps the process would run as the overflow uid (65534).
    const int fd = ::open("/proc/self/setgroups", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        const bool ok = writeAll(fd, "deny", 4);
        ::close(fd);
        if (!ok) {
            r.netStage = 3;
            r.netErrno = errno;
            return;
        }
    }
    if (!writeIdMap("/proc/self/uid_map", uid)) {
        r.netStage = 4;
        r.netErrno = errno;
        return;
    }
    if (!writeIdMap("/proc/self/gid_map", gid)) {
        r.netStage = 5;
        r.netErrno = errno;
        return;
    }
    r.netErrno = 0;
    r.netApplied = 2;
}

bool setLimit(int which, rlim_t soft, rlim_t hard, ChildReport &r)
{
    struct rlimit current {
    };
    if (::getrlimit(which, &current) == 0 && current.rlim_max != RLIM_INFINITY) {
        hard = std::min(hard, current.rlim_max); // lowering only: an unprivileged process cannot raise it
        soft = std::min(soft, hard);
    }
    const struct rlimit lim {
        soft, hard
    };
    if (::setrlimit(which, &lim) != 0) {
        r.rlimitErrno = errno;
        r.rlimitWhich = which;
        return false;
    }
    return true;
}

struct ChildPlan {
    const SandboxOptions *options;
    std::vector<char *> argv, envp;
    std::vector<std::string> env;
    std::string tempDir;
    pid_t parent;
    int devNull, out, err, channel, report;
    rlim_t fsize;
    std::uint64_t keepCaps; // the capabilities a privileged host keeps (profilingCapabilities())
};

// A privileged host keeps no capability, except, where the NVIDIA driver lets only administrators read GPU
// performance counters (RmProfilingAdminOnly: 1 in /proc/driver/nvidia/params), CAP_SYS_ADMIN and CAP_PERFMON for
// the profile passes. The judge then reads the device's settings around every evaluation (devicestate.h).
std::uint64_t profilingCapabilities()
{
    std::ifstream params("/proc/driver/nvidia/params");
    std::string line;
    while (std::getline(params, line)) {
        if (line.rfind("RmProfilingAdminOnly:", 0) == 0 && line.find('1') != std::string::npos)
            return (1ull << CAP_SYS_ADMIN) | (1ull << CAP_PERFMON);
    }
    return 0;
}

// Between fork and execve: async-signal-safe calls only (the judge is multi-threaded).
[[noreturn]] void childMain(const ChildPlan &p)
{
    ChildReport r;
    if (::setpgid(0, 0) != 0)
        r.pgidErrno = errno;
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != p.parent)
        ::_exit(127); // the judge died before the prctl
    // The host is a subreaper of its own tree (kept across execve): a grandchild that double-forks is
    // reparented to the host, not to the judge, so killTree finds it through the ppid chains.
    if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        r.subreaperErrno = errno;
    if (p.options->isolateNetwork)
        isolateNetwork(r);

    const rlim_t cpu = p.options->cpuSeconds;
    if (setLimit(RLIMIT_CORE, 0, 0, r) && setLimit(RLIMIT_FSIZE, p.fsize, p.fsize, r)
        && setLimit(RLIMIT_CPU, cpu, cpu + 5, r))
        setLimit(RLIMIT_NOFILE, p.options->maxOpenFiles, p.options->maxOpenFiles, r);

    // Default dispositions and an empty mask, except SIGXFSZ: ignored, so a write over RLIMIT_FSIZE (the
    // output cap) fails with EFBIG instead of killing the host.
    struct sigaction dfl {
    };
    dfl.sa_handler = SIG_DFL;
    for (int s = 1; s < NSIG; ++s) {
        if (s != SIGKILL && s != SIGSTOP)
            ::sigaction(s, &dfl, nullptr);
    }
    struct sigaction ign {
    };
    ign.sa_handler = SIG_IGN;
    ::sigaction(SIGXFSZ, &ign, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);

    // Move the sources above 0..4 first (any of them may sit on a low number), then place them.
    const int src[5] = {p.devNull, p.out, p.err, p.channel, p.report};
    int high[5];
    for (int i = 0; i < 5; ++i) {
        high[i] = ::fcntl(src[i], F_DUPFD_CLOEXEC, 10);
        if (high[i] < 0 && r.fdErrno == 0)
            r.fdErrno = errno;
    }
    for (int i = 0; i < 4; ++i) {
        if (::dup2(high[i], i) < 0 && r.fdErrno == 0) // dup2 clears FD_CLOEXEC on the target
            r.fdErrno = errno;
    }
    const int reportFd = ::dup3(high[4], 4, O_CLOEXEC) < 0 ? high[4] : 4;
    if (reportFd == 4) {
        if (::syscall(SYS_close_range, 5u, ~0u, 0u) != 0) {
            r.closeRangeErrno = errno;
            struct rlimit nofile {
            };
            ::getrlimit(RLIMIT_NOFILE, &nofile);
            const rlim_t top = std::min<rlim_t>(nofile.rlim_max, 1 << 20);
            for (rlim_t fd = 5; fd < top; ++fd)
                ::close(static_cast<int>(fd));
        }
    } else if (r.fdErrno == 0) {
        r.fdErrno = errno;
    }
    if (r.fdErrno != 0) { // no exec with descriptors other than planned: a second record says it failed
        r.execErrno = r.fdErrno;
        writeAll(reportFd, reinterpret_cast<const char *>(&r), sizeof r);
        writeAll(reportFd, reinterpret_cast<const char *>(&r), sizeof r);
        ::_exit(127);
    }
    if (::chdir(p.tempDir.c_str()) != 0)
        r.chdirErrno = errno;
    // A privileged host loses every capability but p.keepCaps from its bounding set, which limits what execve
    // grants root (without CAP_SYS_PTRACE it cannot open the judge's /proc/<pid>/mem where Landlock is missing;
    // without CAP_SYS_ADMIN, where it can go, the driver refuses clock, power and compute-mode changes). An
    // unprivileged process gets EPERM: it has nothing to drop.
    for (int cap = 0; cap <= CAP_LAST_CAP; ++cap) {
        if (!(p.keepCaps >> cap & 1) && ::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0)
            r.capsDropped = 1;
    }

    writeAll(reportFd, reinterpret_cast<const char *>(&r), sizeof r);
    ::execve(p.argv[0], p.argv.data(), p.envp.data());
    r.execErrno = errno;
    writeAll(reportFd, reinterpret_cast<const char *>(&r), sizeof r);
    ::_exit(127);
}

std::string errnoName(int e)
{
    const char *name = ::strerrorname_np(e);
    return name ? std::string(name) : std::to_string(e);
}

const char *limitName(int which)
{
    switch (which) {
    case RLIMIT_CORE: return "RLIMIT_CORE";
    case RLIMIT_FSIZE: return "RLIMIT_FSIZE";
    case RLIMIT_CPU: return "RLIMIT_CPU";
    case RLIMIT_NOFILE: return "RLIMIT_NOFILE";
    default: return "rlimit";
    }
}

void fillProtections(Protections &pr, const ChildReport &r, bool isolateNet, std::uint64_t keepCaps)
{
    pr.ownProcessGroup = r.pgidErrno == 0;
    if (!pr.ownProcessGroup)
        pr.notes.push_back("process group: setpgid " + errnoName(r.pgidErrno));
    pr.subreaper = r.subreaperErrno == 0;
    if (!pr.subreaper)
        pr.notes.push_back("subreaper: PR_SET_CHILD_SUBREAPER " + errnoName(r.subreaperErrno));
    int judgeIsSubreaper = 0;
    if (::prctl(PR_GET_CHILD_SUBREAPER, &judgeIsSubreaper) == 0 && judgeIsSubreaper == 0)
        pr.notes.push_back("subreaper: the judge is not a subreaper (becomeSubreaper() not called): orphans of "
                           "a host that ended go to init, which reaps them");
    pr.noInheritedFds = r.fdErrno == 0;
    if (!pr.noInheritedFds)
        pr.notes.push_back("descriptors: " + errnoName(r.fdErrno));
    pr.rlimits = r.rlimitErrno == 0;
    if (!pr.rlimits)
        pr.notes.push_back(std::string("rlimits: ") + limitName(r.rlimitWhich) + " " + errnoName(r.rlimitErrno));
    pr.privateTmp = r.chdirErrno == 0;
    if (!pr.privateTmp)
        pr.notes.push_back("temp dir: chdir " + errnoName(r.chdirErrno));
    if (r.capsDropped)
        pr.notes.push_back(keepCaps ? "capabilities: all dropped but CAP_SYS_ADMIN and CAP_PERFMON (the NVIDIA driver "
                                      "lets only administrators profile here: RmProfilingAdminOnly=1)"
                                    : "capabilities: all dropped");
    pr.network = r.netApplied != 0;
    if (!isolateNet) {
        pr.notes.push_back("network: not requested");
    } else if (r.netApplied == 1) {
        pr.notes.push_back("network: own network namespace (privileged, no user namespace)");
    } else if (r.netApplied == 2) {
        pr.notes.push_back("network: own user + network namespace (uid/gid mapped to themselves)");
    } else {
        static const char *stages[] = {
            "", "unshare(CLONE_NEWNET)", "unshare(CLONE_NEWUSER|CLONE_NEWNET)", "setgroups deny", "uid_map", "gid_map"};
        const int s = std::clamp(r.netStage, 0, 5);
        pr.notes.push_back(std::string("network: ") + stages[s] + " " + errnoName(r.netErrno)
                           + " (the host shares the judge's network)");
    }
}

std::optional<unsigned long long> nsInode(const std::string &proc, const char *ns)
{
    struct stat st {
    };
    if (::stat((proc + "/ns/" + ns).c_str(), &st) != 0)
        return std::nullopt;
    return static_cast<unsigned long long>(st.st_ino);
}

} // namespace

nlohmann::ordered_json Protections::toJson() const
{
    nlohmann::ordered_json j;
    j["own_process_group"] = ownProcessGroup;
    j["subreaper"] = subreaper;
    j["no_inherited_fds"] = noInheritedFds;
    j["rlimits"] = rlimits;
    j["private_tmp"] = privateTmp;
    j["network"] = network;
    j["landlock"] = landlock;
    j["seccomp"] = seccomp;
    j["notes"] = notes;
    return j;
}

Protections Protections::fromJson(const nlohmann::json &j)
{
    Protections p;
    if (!j.is_object())
        return p;
    auto flag = [&](const char *key, bool &out) {
        const auto it = j.find(key);
        if (it != j.end() && it->is_boolean())
            out = it->get<bool>();
    };
    flag("own_process_group", p.ownProcessGroup);
    flag("subreaper", p.subreaper);
    flag("no_inherited_fds", p.noInheritedFds);
    flag("rlimits", p.rlimits);
    flag("private_tmp", p.privateTmp);
    flag("network", p.network);
    flag("landlock", p.landlock);
    flag("seccomp", p.seccomp);
    const auto notes = j.find("notes");
    if (notes != j.end() && notes->is_array()) {
        for (const auto &n : *notes) {
            if (n.is_string())
                p.notes.push_back(n.get<std::string>());
        }
    }
    return p;
}

std::unique_ptr<SandboxedProcess> SandboxedProcess::spawn(const SandboxOptions &options, std::string &error)
{
    if (options.argv.empty() || !std::filesystem::path(options.argv[0]).is_absolute()) {
        error = "sandbox: argv[0] must be an absolute path";
        return nullptr;
    }
    std::error_code ec;
    const std::filesystem::path parent = options.tempParent.empty() ? std::filesystem::temp_directory_path(ec)
                                                                    : options.tempParent;
    std::string pattern = (parent / "kforge-host-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        error = "sandbox: mkdtemp " + pattern + ": " + std::strerror(errno);
        return nullptr;
    }
    std::unique_ptr<SandboxedProcess> proc(new SandboxedProcess);
    proc->m_tempDir = pattern;
    proc->m_cap = options.outputCapBytes;
    // One RLIMIT_FSIZE for the whole process: the output files may grow to max(cap, fileSize) on disk, a
    // write beyond fails with EFBIG (SIGXFSZ ignored); readStdout/readStderr return at most the cap.
    proc->m_fsizeLimit = std::max(options.outputCapBytes, options.fileSizeBytes);

    ChildPlan plan{};
    plan.options = &options;
    plan.tempDir = proc->m_tempDir.string();
    plan.parent = ::getpid();
    plan.fsize = static_cast<rlim_t>(proc->m_fsizeLimit);
    plan.keepCaps = profilingCapabilities();
    for (const auto &a : options.argv)
        plan.argv.push_back(const_cast<char *>(a.c_str()));
    plan.argv.push_back(nullptr);
    // TMPDIR points into the private directory (the only place Landlock lets the host write), and so does the
    // driver's JIT cache unless the judge chose one.
    plan.env.reserve(options.env.size() + 2);
    bool cachePath = false;
    for (const auto &e : options.env) {
        if (e.rfind("TMPDIR=", 0) == 0)
            continue;
        cachePath = cachePath || e.rfind("CUDA_CACHE_PATH=", 0) == 0;
        plan.env.push_back(e);
    }
    plan.env.push_back("TMPDIR=" + plan.tempDir);
    if (!cachePath)
        plan.env.push_back("CUDA_CACHE_PATH=" + plan.tempDir + "/cuda-cache");
    for (const auto &e : plan.env)
        plan.envp.push_back(const_cast<char *>(e.c_str()));
    plan.envp.push_back(nullptr);

    int sv[2] = {-1, -1};
    int rep[2] = {-1, -1};
    plan.devNull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    plan.out = ::open((proc->m_tempDir / "stdout.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    plan.err = ::open((proc->m_tempDir / "stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    const bool fdsOk = plan.devNull >= 0 && plan.out >= 0 && plan.err >= 0
                       && ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0 && ::pipe2(rep, O_CLOEXEC) == 0;
    auto closeAll = [&] {
        for (int fd : {plan.devNull, plan.out, plan.err, sv[1], rep[0], rep[1]}) {
            if (fd >= 0)
                ::close(fd);
        }
    };
    if (!fdsOk) {
        error = std::string("sandbox: descriptors: ") + std::strerror(errno);
        closeAll();
        if (sv[0] >= 0)
            ::close(sv[0]);
        return nullptr;
    }
    plan.channel = sv[1];
    plan.report = rep[1];
    proc->m_channel = sv[0];

    const pid_t pid = ::fork();
    if (pid < 0) {
        error = std::string("sandbox: fork: ") + std::strerror(errno);
        closeAll();
        return nullptr; // the destructor closes the channel and removes the directory
    }
    if (pid == 0)
        childMain(plan);
    proc->m_pid = pid;
    ::setpgid(pid, pid); // also from here, so killTree's group kill cannot race the child's own setpgid
    rep[1] = -1;
    ::close(plan.report);
    plan.report = -1;
    const int reportRead = rep[0];
    rep[0] = -1;
    closeAll();

    // One record before execve; a second one only when execve failed; EOF at exec.
    char raw[2 * sizeof(ChildReport)];
    std::size_t got = 0;
    while (got < sizeof raw) {
        const ssize_t n = ::read(reportRead, raw + got, sizeof raw - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    ChildReport first{}, second{};
    std::memcpy(&first, raw, std::min(got, sizeof first));
    if (got == sizeof raw)
        std::memcpy(&second, raw + sizeof first, sizeof second);
    ::close(reportRead);
    if (got < sizeof(ChildReport)) {
        error = "sandbox: the child ended before exec";
        return nullptr; // destructor kills and reaps
    }
    if (got == 2 * sizeof(ChildReport)) {
        error = second.fdErrno != 0 ? "sandbox: descriptors: " + std::string(std::strerror(second.fdErrno))
                                    : "sandbox: exec " + options.argv[0] + ": " + std::strerror(second.execErrno);
        return nullptr;
    }
    fillProtections(proc->m_protections, first, options.isolateNetwork, plan.keepCaps);
    const std::string self = "/proc/" + std::to_string(pid);
    for (const char *ns : {"user", "net"}) {
        const auto mine = nsInode("/proc/self", ns);
        const auto child = nsInode(self, ns);
        if (mine && child && *mine != *child) {
            const int fd = ::open((self + "/ns/" + ns).c_str(), O_RDONLY | O_CLOEXEC);
            const auto held = fd >= 0 ? nsInode(self, ns) : std::nullopt;
            if (held && *held == *child) { // still the child's when it was opened
                proc->m_namespaces.push_back({ns, *child});
                proc->m_namespaceFds.push_back(fd);
            } else if (fd >= 0) {
                ::close(fd);
            }
        }
    }
    return proc;
}

SandboxedProcess::~SandboxedProcess()
{
    if (m_pid > 0)
        killTree();
    for (int fd : m_namespaceFds)
        ::close(fd);
    if (m_channel >= 0)
        ::close(m_channel);
    removeTree(m_tempDir);
}

std::string SandboxedProcess::readCapped(const std::filesystem::path &file, bool &truncated) const
{
    truncated = false;
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return {};
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::size_t>(std::max<std::streamoff>(0, in.tellg()));
    in.seekg(0);
    const std::size_t n = std::min(size, m_cap);
    std::string text(n, '\0');
    in.read(text.data(), static_cast<std::streamsize>(n));
    text.resize(static_cast<std::size_t>(in.gcount()));
    // Over the cap, or at the file-size limit (where the cap is the limit, the next write failed).
    truncated = size > m_cap || size >= m_fsizeLimit;
    return text;
}

std::string SandboxedProcess::readStdout(bool &truncated) const
{
    return readCapped(m_tempDir / "stdout.txt", truncated);
}

std::string SandboxedProcess::readStderr(bool &truncated) const
{
    return readCapped(m_tempDir / "stderr.txt", truncated);
}

bool SandboxedProcess::running()
{
    if (m_status)
        return false;
    if (m_pid <= 0)
        return false;
    int status = 0;
    pid_t r;
    while ((r = ::waitpid(m_pid, &status, WNOHANG)) < 0 && errno == EINTR) {
    }
    if (r == m_pid) {
        m_status = status;
        reapStrays();
        return false;
    }
    return r == 0;
}

std::optional<int> SandboxedProcess::exitStatus() const
{
    return m_status;
}

void SandboxedProcess::killTree()
{
    if (m_pid <= 0 || m_treeGone)
        return;
    TreeMarker marker;
    marker.root = m_status ? 0 : m_pid;
    marker.processGroup = m_pid;
    marker.namespaces = m_namespaces;
    m_treeGone = killMarkedTree(marker);
    if (!m_status) {
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0) {
            if (errno != EINTR) {
                status = -1;
                break;
            }
        }
        m_status = status;
    }
    reapStrays();
    if (m_treeGone) { // nothing is left in the namespaces; their numbers may be reused from now on
        for (int fd : m_namespaceFds)
            ::close(fd);
        m_namespaceFds.clear();
        m_namespaces.clear();
    }
}

void becomeSubreaper()
{
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    reapStrays();
}

} // namespace kforge::runtime::host
