#pragma once
// The candidate host's sandbox (issue 19): the judge (kforge-worker) starts every process that runs untrusted
// kernel code through SandboxedProcess::spawn. The child gets a private channel at fd 3 (a socketpair), fd 0 =
// /dev/null, fd 1 and 2 = capped files in its private temporary directory (also its cwd) and no other
// descriptor; its own process group; rlimits; a user + network namespace where the kernel allows one. After
// exec, the host applies Landlock and seccomp to itself (applyHostRestrictions) once CUDA is initialised.
// Qt-free and CUDA-free (Linux only).
#include <nlohmann/json.hpp>

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kforge::runtime::host {

struct SandboxOptions {
    std::vector<std::string> argv;         // argv[0] absolute path
    std::vector<std::string> env;          // full environment for the child ("K=V")
    std::filesystem::path tempParent;      // the private temp dir is made under it (mkdtemp), cwd of the child
    std::size_t outputCapBytes = 1 << 20;  // per stream (stdout, stderr); writes beyond fail (EFBIG), never block
    std::size_t fileSizeBytes = 64u << 20; // RLIMIT_FSIZE for everything else the child writes
    unsigned cpuSeconds = 600;             // RLIMIT_CPU
    unsigned maxOpenFiles = 1024;          // RLIMIT_NOFILE
    bool isolateNetwork = true;            // unshare(CLONE_NEWUSER|CLONE_NEWNET) where allowed
    bool landlock = true; // writes only under the temp dir (+ /dev for nvidia), where the kernel has it
    bool seccomp = true;  // deny ptrace, process_vm_readv/writev, kexec, mount, bpf, ... and
                          // socket() except AF_UNIX, where the kernel has it
};

struct Protections { // what was applied, for the result ("isolation" object)
    bool ownProcessGroup = false, subreaper = false, noInheritedFds = false, rlimits = false, privateTmp = false,
         network = false, landlock = false, seccomp = false;
    std::vector<std::string> notes; // why something did not apply ("landlock: ENOSYS (kernel 5.10)")
    nlohmann::ordered_json toJson() const;
    // The inverse of toJson (the judge reads the host's own report from its first reply); unknown keys ignored.
    static Protections fromJson(const nlohmann::json &j);
};

class SandboxedProcess
{
public:
    // Call it from a thread that lives as long as the host should (the main thread): the child has
    // PR_SET_PDEATHSIG = SIGKILL, which the kernel fires when the *thread* that forked it ends.
    // The child's environment is options.env with TMPDIR set to tempDir() (and CUDA_CACHE_PATH beneath it
    // unless given): Landlock allows writes nowhere else.
    static std::unique_ptr<SandboxedProcess> spawn(const SandboxOptions &, std::string &error);
    ~SandboxedProcess(); // killTree() + reap + remove the temp dir
    SandboxedProcess(const SandboxedProcess &) = delete;
    SandboxedProcess &operator=(const SandboxedProcess &) = delete;

    pid_t pid() const { return m_pid; }
    int channelFd() const { return m_channel; } // the parent's end of the socketpair (CLOEXEC)
    const std::filesystem::path &tempDir() const { return m_tempDir; }
    const Protections &protections() const { return m_protections; }
    // stdout/stderr text so far, at most outputCapBytes each; truncated set when the cap was hit
    std::string readStdout(bool &truncated) const;
    std::string readStderr(bool &truncated) const;
    bool running();                        // waitpid WNOHANG
    std::optional<int> exitStatus() const; // raw wait status once reaped
    void killTree();                       // SIGKILL to the whole tree: process group AND every descendant that
                                           // escaped with setsid/double fork (the worker is PR_SET_CHILD_SUBREAPER,
                                           // descendants are found through /proc/*/stat ppid chains or a cgroup)

private:
    SandboxedProcess() = default;
    std::string readCapped(const std::filesystem::path &file, bool &truncated) const;

    pid_t m_pid = -1;
    int m_channel = -1;
    std::filesystem::path m_tempDir;
    std::size_t m_cap = 0;
    std::size_t m_fsizeLimit = 0;
    Protections m_protections;
    std::optional<int> m_status;
    // The child's own namespaces ("user"/"net" and inode): every process still in them belongs to the tree,
    // also one that escaped after the host itself ended.
    std::vector<std::pair<std::string, unsigned long long>> m_namespaces;
    // Held open while the namespaces mark the tree: a namespace's inode number is reused once it is freed, so
    // without them a later killTree would take a newer host (in a new namespace of the same number) for
    // this one's (seen on the H200: a fresh host killed while its batches were mapped).
    std::vector<int> m_namespaceFds;
    bool m_treeGone = false; // a killTree found nothing left alive: later calls do nothing
};

// Called once at worker start: PR_SET_CHILD_SUBREAPER on the worker, so escaped grandchildren are reparented to
// it and can be killed and reaped. Also reaps stray children (SIGCHLD handler or periodic waitpid(-1, WNOHANG)).
void becomeSubreaper();

// What the host applies to itself after exec (and after CUDA init): the flags of SandboxOptions and the one
// directory it may write to (its temp dir; /dev stays writable for the driver).
struct HostRestrictions {
    bool landlock = true;
    bool seccomp = true;
    std::filesystem::path writableDir; // empty: the current directory
    // Signals kept inside the host's group by the seccomp filter even where Landlock scopes them (tests); where
    // Landlock cannot (ABI < 6), the filter always does.
    bool signalFilter = false;
    nlohmann::ordered_json toJson() const;
    static HostRestrictions fromJson(const nlohmann::json &j);
};

// Child side: PR_SET_NO_NEW_PRIVS, then Landlock (read+execute everywhere, write only under writableDir, to the
// null, random and NVIDIA device files and to existing files of /dev/shm, where the ABI exists), then a seccomp-bpf filter (EPERM for ptrace, process_vm_readv/writev, kexec_*,
// mount, umount2, bpf, keyctl, add_key, request_key, *_module, socket() of any family but AF_UNIX, ...).
// Fills landlock/seccomp (and notes) of the Protections it returns; the other fields stay false.
Protections applyHostRestrictions(const HostRestrictions &restrictions);

} // namespace kforge::runtime::host
