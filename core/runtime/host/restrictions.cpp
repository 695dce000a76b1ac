// applyHostRestrictions: what the candidate host applies to itself after exec and CUDA initialisation
// (PR_SET_NO_NEW_PRIVS, Landlock, seccomp-bpf). Raw syscalls and kernel headers only.
#include "core/runtime/host/sandbox.h"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <vector>

namespace kforge::runtime::host {

namespace {

std::string errnoText(int e)
{
    const char *name = ::strerrorname_np(e);
    return name ? std::string(name) : std::to_string(e);
}

std::string kernelRelease()
{
    struct utsname u {
    };
    return ::uname(&u) == 0 ? std::string(u.release) : std::string("?");
}

// ---- Landlock. Access bits by ABI version (older system headers lack the newer ones).
constexpr std::uint64_t kFsExecute = 1ull << 0, kFsWriteFile = 1ull << 1, kFsReadFile = 1ull << 2,
                        kFsReadDir = 1ull << 3, kFsRemoveDir = 1ull << 4, kFsRemoveFile = 1ull << 5,
                        kFsMakeChar = 1ull << 6, kFsMakeDir = 1ull << 7, kFsMakeReg = 1ull << 8,
                        kFsMakeSock = 1ull << 9, kFsMakeFifo = 1ull << 10, kFsMakeBlock = 1ull << 11,
                        kFsMakeSym = 1ull << 12, kFsRefer = 1ull << 13, kFsTruncate = 1ull << 14;
constexpr std::uint64_t kNetBindTcp = 1ull << 0, kNetConnectTcp = 1ull << 1;
constexpr std::uint64_t kScopeSignal = 1ull << 1;
static_assert(kFsExecute == LANDLOCK_ACCESS_FS_EXECUTE && kFsMakeSym == LANDLOCK_ACCESS_FS_MAKE_SYM);

struct RulesetAttr { // struct landlock_ruleset_attr of ABI 6; the size passed follows the ABI in use
    std::uint64_t handledAccessFs;
    std::uint64_t handledAccessNet; // ABI 4
    std::uint64_t scoped;           // ABI 6
};

bool addPathRule(int ruleset, const char *path, std::uint64_t access, std::string &why)
{
    const int fd = ::open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) {
        why = std::string(path) + ": " + errnoText(errno);
        return false;
    }
    struct landlock_path_beneath_attr rule {
    };
    rule.allowed_access = access;
    rule.parent_fd = fd;
    const long rc = ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    const int e = errno;
    ::close(fd);
    if (rc != 0) {
        why = std::string("add_rule ") + path + ": " + errnoText(e);
        return false;
    }
    return true;
}

// The device files a host writes to (opening a device read-write is a write): the null and random devices and
// the NVIDIA driver's nodes. Nothing beneath /dev may be created, removed or renamed.
std::vector<std::string> writableDevices()
{
    std::vector<std::string> out;
    for (const char *d : {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"})
        out.emplace_back(d);
    std::error_code ec;
    for (const auto &e : std::filesystem::directory_iterator("/dev", ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("nvidia", 0) == 0)
            out.push_back(e.path().string()); // nvidiactl, nvidia0.., nvidia-uvm(-tools), nvidia-caps/
    }
    return out;
}

// Read and execute stay allowed everywhere (the driver, the libraries, /proc, /sys); every kind of write is
// handled. Allowed: anything beneath the writable directory; writing to the device files above; writing to the
// files that exist in /dev/shm (the judge's CUDA IPC events live there), creating none: a host leaves nothing
// there for a later evaluation, and fills nothing. ABI 4 adds TCP bind/connect (denied, no rule), ABI 6 the
// signal scope (no signal to processes outside the domain: the judge and other hosts); `signalsScoped` says
// whether it holds.
bool applyLandlock(const std::filesystem::path &writable, Protections &p, bool &signalsScoped)
{
    signalsScoped = false;
    const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 0) {
        p.notes.push_back("landlock: " + errnoText(errno) + " (kernel " + kernelRelease() + ")");
        return false;
    }
    std::uint64_t write = kFsWriteFile | kFsRemoveDir | kFsRemoveFile | kFsMakeChar | kFsMakeDir | kFsMakeReg
                          | kFsMakeSock | kFsMakeFifo | kFsMakeBlock | kFsMakeSym;
    if (abi >= 2)
        write |= kFsRefer;
    if (abi >= 3)
        write |= kFsTruncate;
    RulesetAttr attr{write, 0, 0};
    std::size_t size = sizeof attr.handledAccessFs;
    if (abi >= 4) {
        attr.handledAccessNet = kNetBindTcp | kNetConnectTcp;
        size = offsetof(RulesetAttr, scoped);
    }
    if (abi >= 6) {
        attr.scoped = kScopeSignal;
        size = sizeof attr;
    }
    const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, size, 0));
    if (ruleset < 0) {
        p.notes.push_back("landlock: create_ruleset " + errnoText(errno) + " (ABI " + std::to_string(abi) + ")");
        return false;
    }
    std::string why;
    std::error_code ec;
    const std::string dir = writable.empty() ? std::filesystem::current_path(ec).string() : writable.string();
    const std::uint64_t writeExisting = kFsWriteFile | (abi >= 3 ? kFsTruncate : 0);
    bool rules = addPathRule(ruleset, dir.c_str(), write, why);
    int devices = 0;
    for (const std::string &dev : writableDevices()) {
        if (!rules)
            break;
        if (::access(dev.c_str(), F_OK) == 0) {
            rules = addPathRule(ruleset, dev.c_str(), writeExisting, why);
            ++devices;
        }
    }
    if (rules && ::access("/dev/shm", F_OK) == 0)
        rules = addPathRule(ruleset, "/dev/shm", writeExisting, why);
    if (!rules) {
        ::close(ruleset);
        p.notes.push_back("landlock: " + why);
        return false;
    }
    const long rc = ::syscall(SYS_landlock_restrict_self, ruleset, 0);
    const int e = errno;
    ::close(ruleset);
    if (rc != 0) {
        p.notes.push_back("landlock: restrict_self " + errnoText(e));
        return false;
    }
    std::string note = "landlock: ABI " + std::to_string(abi) + ", writes only under " + dir + ", to "
                       + std::to_string(devices) + " device files and to existing files of /dev/shm (nothing created "
                                                   "in /dev)";
    if (abi >= 4)
        note += ", no TCP bind/connect";
    if (abi >= 6) {
        note += ", no signals outside the sandbox";
        signalsScoped = true;
    }
    p.notes.push_back(note);
    return true;
}

// ---- seccomp-bpf
#if defined(__x86_64__)
constexpr std::uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr std::uint32_t kArch = AUDIT_ARCH_AARCH64;
#endif

constexpr std::uint32_t kNrOffset = offsetof(struct seccomp_data, nr);
constexpr std::uint32_t kArchOffset = offsetof(struct seccomp_data, arch);
constexpr std::uint32_t arg0Low()
{
    // The low 32 bits of args[0] (little-endian); every check here is on an int argument.
    return offsetof(struct seccomp_data, args);
}

// EPERM, whatever the arguments. setsid: the whole tree stays one session and process group, which also marks an
// orphan once the host itself has ended (killTree). setpgid is below: it succeeds without doing anything.
constexpr long kDenied[] = {
    SYS_ptrace,
    SYS_process_vm_readv,
    SYS_process_vm_writev,
    SYS_kexec_load,
    SYS_kexec_file_load,
    SYS_mount,
    SYS_umount2,
    SYS_pivot_root,
    SYS_chroot,
    SYS_bpf,
    SYS_keyctl,
    SYS_add_key,
    SYS_request_key,
    SYS_init_module,
    SYS_finit_module,
    SYS_delete_module,
    SYS_setns,
    SYS_unshare,
    SYS_swapon,
    SYS_swapoff,
    SYS_reboot,
    SYS_open_by_handle_at,
    SYS_perf_event_open,
    SYS_userfaultfd,
    SYS_io_uring_setup,
    SYS_io_uring_enter,
    SYS_io_uring_register,
    SYS_fsopen,
    SYS_fsmount,
    SYS_move_mount,
    SYS_open_tree,
    SYS_setsid,
};

class Filter
{
public:
    void stmt(std::uint16_t code, std::uint32_t k) { m_prog.push_back(BPF_STMT(code, k)); }
    void jump(std::uint16_t code, std::uint32_t k, std::uint8_t jt, std::uint8_t jf)
    {
        m_prog.push_back(BPF_JUMP(code, k, jt, jf));
    }
    void ret(std::uint32_t action) { stmt(BPF_RET | BPF_K, action); }
    // EPERM for the syscall nr (A holds the number).
    void deny(long nr)
    {
        jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(nr), 0, 1);
        ret(SECCOMP_RET_ERRNO | EPERM);
    }
    // When A == nr: run `block` (every path of which returns), else skip over it with A unchanged.
    template <typename Block>
    void when(long nr, Block block)
    {
        Filter inner;
        block(inner);
        jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(nr), 0, static_cast<std::uint8_t>(inner.m_prog.size()));
        m_prog.insert(m_prog.end(), inner.m_prog.begin(), inner.m_prog.end());
    }
    std::vector<sock_filter> m_prog;
};

// Signals and pidfds aimed at the judge, its process group, or every process (-1): EPERM.
void guardSignalTarget(Filter &f, std::uint32_t judge, std::uint32_t judgeGroup)
{
    f.stmt(BPF_LD | BPF_W | BPF_ABS, arg0Low());
    f.jump(BPF_JMP | BPF_JEQ | BPF_K, 0xFFFFFFFFu, 3, 0);
    f.jump(BPF_JMP | BPF_JEQ | BPF_K, judge, 2, 0);
    f.jump(BPF_JMP | BPF_JEQ | BPF_K, judgeGroup, 1, 0);
    f.ret(SECCOMP_RET_ALLOW);
    f.ret(SECCOMP_RET_ERRNO | EPERM);
}

// Where Landlock cannot scope signals (ABI < 6), the filter keeps them inside the host's own process group:
// kill() of the group (0, -group) or of the host itself; tgkill, rt_(tg)sigqueueinfo and pidfd_open of the host
// only. A sibling host, the judge and everything else answer EPERM. The numbers are the host's: a child process of
// the host signals its group, not itself by pid (its raise() fails; abort() still ends it).
void guardOwnGroup(Filter &f, long nr, std::uint32_t self, std::uint32_t group)
{
    f.stmt(BPF_LD | BPF_W | BPF_ABS, arg0Low());
    if (nr == SYS_kill) {                                 // to ALLOW, two and one instructions further on
        f.jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0);     // kill(0, ...): the caller's group
        f.jump(BPF_JMP | BPF_JEQ | BPF_K, group, 1, 0); // kill(-group, ...)
    }
    f.jump(BPF_JMP | BPF_JEQ | BPF_K, self, 0, 1);
    f.ret(SECCOMP_RET_ALLOW);
    f.ret(SECCOMP_RET_ERRNO | EPERM);
}

bool applySeccomp(Protections &p, bool ownGroupSignals)
{
#if !defined(__x86_64__) && !defined(__aarch64__)
    p.notes.push_back("seccomp: no filter for this architecture");
    return false;
#else
    const auto judge = static_cast<std::uint32_t>(::getppid());
    const auto judgeGroup = static_cast<std::uint32_t>(-::getpgid(::getppid()));
    Filter f;
    f.stmt(BPF_LD | BPF_W | BPF_ABS, kArchOffset);
    f.jump(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0);
    f.ret(SECCOMP_RET_KILL_PROCESS); // another syscall ABI (i386 int 0x80) would bypass the numbers below
    f.stmt(BPF_LD | BPF_W | BPF_ABS, kNrOffset);
#if defined(__x86_64__)
    f.jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1); // x32 ABI
    f.ret(SECCOMP_RET_ERRNO | EPERM);
#endif
    for (long nr : kDenied)
        f.deny(nr);
    // socket(): AF_UNIX only (the channel, the driver's own local sockets).
    f.when(SYS_socket, [](Filter &b) {
        b.stmt(BPF_LD | BPF_W | BPF_ABS, arg0Low());
        b.jump(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1);
        b.ret(SECCOMP_RET_ALLOW);
        b.ret(SECCOMP_RET_ERRNO | EPERM);
    });
    // clone(): no new namespaces (nothing may leave the tree's namespaces); clone3 hides its flags in memory,
    // so it answers ENOSYS and the C library falls back to clone.
    f.when(SYS_clone, [](Filter &b) {
        b.stmt(BPF_LD | BPF_W | BPF_ABS, arg0Low());
        b.jump(BPF_JMP | BPF_JSET | BPF_K,
               CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWCGROUP,
               0, 1);
        b.ret(SECCOMP_RET_ERRNO | EPERM);
        b.ret(SECCOMP_RET_ALLOW);
    });
    f.when(SYS_clone3, [](Filter &b) { b.ret(SECCOMP_RET_ERRNO | ENOSYS); });
    // setpgid(): answers 0 and leaves the group as it is. Build tools put their jobs in groups of their own
    // (ninja's posix_spawn with POSIX_SPAWN_SETPGROUP, which fails as a whole on an error): a module's
    // load_inline builds run, and every process stays in the tree's group.
    f.when(SYS_setpgid, [](Filter &b) { b.ret(SECCOMP_RET_ERRNO | 0); });
    // prctl(PR_SET_CHILD_SUBREAPER): the host stays the subreaper of its tree.
    f.when(SYS_prctl, [](Filter &b) {
        b.stmt(BPF_LD | BPF_W | BPF_ABS, arg0Low());
        b.jump(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_CHILD_SUBREAPER, 0, 1);
        b.ret(SECCOMP_RET_ERRNO | EPERM);
        b.ret(SECCOMP_RET_ALLOW);
    });
    const auto self = static_cast<std::uint32_t>(::getpid());
    const auto ownGroup = static_cast<std::uint32_t>(-::getpgrp());
    for (long nr : {SYS_kill, SYS_tgkill, SYS_rt_sigqueueinfo, SYS_rt_tgsigqueueinfo, SYS_pidfd_open}) {
        if (ownGroupSignals)
            f.when(nr, [&](Filter &b) { guardOwnGroup(b, nr, self, ownGroup); });
        else
            f.when(nr, [&](Filter &b) { guardSignalTarget(b, judge, judgeGroup); });
    }
    f.ret(SECCOMP_RET_ALLOW);

    struct sock_fprog prog {
    };
    prog.len = static_cast<unsigned short>(f.m_prog.size());
    prog.filter = f.m_prog.data();
    // TSYNC: the CUDA driver's threads already exist and must be filtered too.
    if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0) {
        p.notes.push_back("seccomp: " + errnoText(errno) + " (kernel " + kernelRelease() + ")");
        return false;
    }
    p.notes.push_back("seccomp: " + std::to_string(prog.len)
                      + " instructions: EPERM for ptrace, process_vm_*, mount, bpf, keyrings, modules, "
                        "namespaces, io_uring, perf_event_open, setsid, socket() but AF_UNIX, "
                      + std::string(ownGroupSignals ? "signals outside the host's group" : "signals to the judge")
                      + "; setpgid a no-op");
    return true;
#endif
}

} // namespace

nlohmann::ordered_json HostRestrictions::toJson() const
{
    nlohmann::ordered_json j;
    j["landlock"] = landlock;
    j["seccomp"] = seccomp;
    j["writable_dir"] = writableDir.string();
    j["signal_filter"] = signalFilter;
    return j;
}

HostRestrictions HostRestrictions::fromJson(const nlohmann::json &j)
{
    HostRestrictions r;
    if (!j.is_object())
        return r;
    if (j.contains("landlock") && j["landlock"].is_boolean())
        r.landlock = j["landlock"].get<bool>();
    if (j.contains("seccomp") && j["seccomp"].is_boolean())
        r.seccomp = j["seccomp"].get<bool>();
    if (j.contains("signal_filter") && j["signal_filter"].is_boolean())
        r.signalFilter = j["signal_filter"].get<bool>();
    if (j.contains("writable_dir") && j["writable_dir"].is_string())
        r.writableDir = j["writable_dir"].get<std::string>();
    return r;
}

Protections applyHostRestrictions(const HostRestrictions &restrictions)
{
    Protections p;
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        p.notes.push_back("no_new_privs: " + errnoText(errno));
        return p; // neither Landlock nor an unprivileged seccomp filter can follow
    }
    bool signalsScoped = false;
    if (restrictions.landlock)
        p.landlock = applyLandlock(restrictions.writableDir, p, signalsScoped);
    else
        p.notes.push_back("landlock: not requested");
    if (restrictions.seccomp)
        p.seccomp = applySeccomp(p, restrictions.signalFilter || !signalsScoped);
    else
        p.notes.push_back("seccomp: not requested");
    return p;
}

} // namespace kforge::runtime::host
