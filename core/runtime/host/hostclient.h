#pragma once
// The judge's side of one candidate host (candidatehost.h): spawned through the sandbox (sandbox.h), one
// request at a time on the channel, every wait under a watchdog. A host that does not answer in time is
// killed with its whole tree and reported as a timeout naming the phase; one that dies is reported as crashed
// with its signal or exit status and the tail of its stderr. The judge's own CUDA context is never touched.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <sys/types.h>
#include <vector>

namespace kforge::runtime::host {

class SandboxedProcess;

// Thrown by HostClient::request: the evaluation ends with `verdict` ("crashed", "timeout").
struct HostFailure {
    std::string verdict;
    std::string message;
};

// What a host runs: the native host (this kforge-worker with --candidate-host) on a kernel's shared object, or
// the module host (torchworker/kforge-module-host under `python3 -I -B`) on a PyTorch module, a torch task's
// Model or ModelNew. Both speak the same protocol (hostprotocol.h) in the same sandbox.
enum class HostKind { Native, Module };

struct ModuleHostStart {
    std::string python;       // an interpreter with torch
    std::string script;       // kforge-module-host
    std::string guardLibrary; // libkforge_hostguard.so: the Landlock and seccomp rules the native host applies
    std::string fileName = "module.py"; // the module's file name in the host's directory (messages name it)
    nlohmann::ordered_json init = nlohmann::ordered_json::object(); // class, init_args, seed, mode
    // The judge's profiler library (libkforge_moduleprofile.so), which a spare loads while it boots, so a module's
    // init need not (init's "profiler" names it too); empty: none.
    std::string profiler;
    // The judge's cache of this module's own extension builds (load_inline), or empty: its builds are copied
    // into the host's directory before init (where the host's load_inline finds them instead of compiling), and
    // the builds the host made during init are copied back after it. Only the judge writes the cache; a
    // folder serves one module's bytes (WorkerServer checks them).
    std::filesystem::path extensions;
};

struct HostStart {
    HostKind kind = HostKind::Native;
    ModuleHostStart module; // kind Module: the interpreter, the host script and the init's module fields
    std::string executable; // this kforge-worker
    int device = 0;
    std::string slot; // reference | candidate | baseline
    std::filesystem::path tempParent;
    std::string library; // the shared object's (kind Module: the module's) bytes, written into the host's directory
    std::size_t outputCapBytes = 1 << 20;
    double initTimeoutS = 60; // the watchdog of init (its CUDA context and the library's load)
    // A command line the host runs under (compute-sanitizer and its options, the deep check); empty: none.
    std::vector<std::string> wrapper;
    // "K=V" entries that replace the judge's own in the host's environment (a prebuild host's
    // CUDA_VISIBLE_DEVICES and TORCH_CUDA_ARCH_LIST); the host's own values (HOME, TMPDIR, ...) still win.
    std::vector<std::string> environment;
};

class HostClient
{
public:
    ~HostClient(); // "exit" (best effort, short), then the sandbox kills the tree and removes its directory
    HostClient(const HostClient &) = delete;
    HostClient &operator=(const HostClient &) = delete;

    // Spawns the host and sends init. On failure returns nullptr with `code` (load_failed, abi_mismatch,
    // missing_entry, out_of_memory, crashed, timeout, internal) and `message`. With `spare` (from spawnSpare,
    // of the same executable, device and temporary parent, no wrapper), that host is used instead of a new
    // one: its boot's answer is awaited and it gets the library; a spare that died is replaced by a new host.
    static std::unique_ptr<HostClient> start(const HostStart &how, std::string &code, std::string &message,
                                             std::unique_ptr<HostClient> spare = nullptr);
    // start() in two halves, for a host whose init runs while the judge does other work (a module's extension
    // builds ahead of its evaluation, WorkerServer's prebuild): begin spawns the host, lends the builds and sends
    // init without waiting; initAnswered() says, without waiting, whether its answer (or its death) is there;
    // finishStart waits at most `timeoutS` for it and keeps the builds init made, also when init was refused
    // (the module failed after its builds). finishStart's result and failures are start()'s.
    static std::unique_ptr<HostClient> begin(const HostStart &how, std::string &code, std::string &message,
                                             std::unique_ptr<HostClient> spare = nullptr);
    bool initAnswered();
    bool finishStart(const HostStart &how, double timeoutS, std::string &code, std::string &message);
    // A spare host: spawned and asked to boot (create its CUDA context) without waiting for its answer, so
    // the boot overlaps what the judge does meanwhile. `how.slot` and `how.library` are not used. nullptr
    // (with `error`) when it cannot be spawned.
    static std::unique_ptr<HostClient> spawnSpare(const HostStart &how, std::string &error);
    // A spare whose boot has not been answered yet: waits for that answer (at most `timeoutS`); false when the
    // spare died or failed to boot (it is killed then). True at once for a host that is not booting.
    bool settle(double timeoutS);
    // A settled spare whose boot found no CUDA device (none on this machine, or no memory left for a
    // context while another process held it all).
    bool bootedWithoutDevice() const { return m_bootReply.is_object() && !m_bootReply.value("device", true); }
    // How long the start took, by step (ms): spawn, boot_wait (a spare's remaining boot), and the host's
    // own context, restrictions and library load.
    const nlohmann::ordered_json &startMs() const { return m_startMs; }
    // The host's answer to init (a module host's: the init arguments, the state-dict entries, the forward's names).
    const nlohmann::ordered_json &initReply() const { return m_initReply; }

    // Sends `request` and waits at most `timeoutS` for its one-line answer. Throws HostFailure when the host
    // dies or stays silent (it is killed then); a refusal ({"ok": false, ...}) is returned as it is.
    nlohmann::ordered_json request(const nlohmann::ordered_json &request, double timeoutS, const std::string &phase);

    bool alive() const { return !m_dead; }
    HostKind kind() const { return m_kind; }
    int abi() const { return m_abi; } // kf_abi_version, as the host read it
    pid_t pid() const;
    const std::string &slot() const { return m_slot; }
    // The sandbox's Protections merged with what the host reported on init.
    nlohmann::ordered_json protections() const;
    // What the host wrote to stdout / stderr so far (capped at the source); `truncated` when a cap was hit.
    std::string stdoutText(bool &truncated) const;
    std::string stderrTail(std::size_t bytes) const;
    bool outputTruncated() const;
    // Sends "exit" and waits at most `timeoutS` for the process (a wrapper's exit status included) to end;
    // the raw wait status, or nothing when it did not end in time (it is killed then).
    std::optional<int> exitAndWait(double timeoutS);
    // Kills the tree now (after a failure the host must not run on).
    void kill();
    // Between requests the host's whole process group is stopped (SIGSTOP), and continued (SIGCONT) when the
    // judge sends it the next one: outside its own requests a host cannot launch GPU work, so none of it can
    // start while another side's window is open (issue 35, item 1; work it left queued is the judge's quiet
    // probe's to see, batchtimer.h). On by default; off, the host runs freely between requests.
    void setFrozenBetweenRequests(bool on);
    bool frozen() const { return m_frozen; }

private:
    HostClient() = default;
    [[noreturn]] void died(const std::string &phase);
    // request() in two halves: send returns the nonce the answer must carry.
    std::string send(const nlohmann::ordered_json &request, const std::string &phase);
    nlohmann::ordered_json await(const std::string &nonce, double timeoutS, const std::string &phase);
    static std::unique_ptr<HostClient> spawn(const HostStart &how, std::string &error);
    void freeze(); // SIGSTOP to the host's process group, when freezing is on
    void thaw();   // SIGCONT to it, when it was stopped

    std::unique_ptr<SandboxedProcess> m_process;
    std::string m_slot;
    HostKind m_kind = HostKind::Native;
    std::string m_buffer;
    nlohmann::ordered_json m_hostProtections = nlohmann::ordered_json::object();
    bool m_dead = false;
    bool m_freeze = true;  // setFrozenBetweenRequests
    bool m_frozen = false; // the group was stopped and not continued since
    int m_abi = 0;
    std::string m_bootNonce; // a spare's boot request, not answered yet
    std::string m_initNonce; // begin()'s init, not answered yet
    std::chrono::steady_clock::time_point m_initSent;
    nlohmann::ordered_json m_bootReply;
    nlohmann::ordered_json m_startMs = nlohmann::ordered_json::object();
    nlohmann::ordered_json m_initReply = nlohmann::ordered_json::object();
    std::mt19937_64 m_random{std::random_device{}()}; // the requests' nonces
};

} // namespace kforge::runtime::host
