#pragma once
// The judge's side of one candidate host (candidatehost.h): spawned through the sandbox (sandbox.h), one
// request at a time on the channel, every wait under a watchdog. A host that does not answer in time is
// killed with its whole tree and reported as a timeout naming the phase; one that dies is reported as crashed
// with its signal or exit status and the tail of its stderr. The judge's own CUDA context is never touched.
#include <nlohmann/json.hpp>

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

struct HostStart {
    std::string executable; // this kforge-worker
    int device = 0;
    std::string slot; // reference | candidate | baseline
    std::filesystem::path tempParent;
    std::string library; // the shared object's bytes, written into the host's private directory
    std::size_t outputCapBytes = 1 << 20;
    double initTimeoutS = 60; // the watchdog of init (its CUDA context and the library's load)
    // A command line the host runs under (compute-sanitizer and its options, the deep check); empty: none.
    std::vector<std::string> wrapper;
};

class HostClient
{
public:
    ~HostClient(); // "exit" (best effort, short), then the sandbox kills the tree and removes its directory
    HostClient(const HostClient &) = delete;
    HostClient &operator=(const HostClient &) = delete;

    // Spawns the host and sends init. On failure returns nullptr with `code` (load_failed, abi_mismatch,
    // missing_entry, out_of_memory, crashed, timeout, internal) and `message`.
    static std::unique_ptr<HostClient> start(const HostStart &how, std::string &code, std::string &message);

    // Sends `request` and waits at most `timeoutS` for its one-line answer. Throws HostFailure when the host
    // dies or stays silent (it is killed then); a refusal ({"ok": false, ...}) is returned as it is.
    nlohmann::ordered_json request(const nlohmann::ordered_json &request, double timeoutS, const std::string &phase);

    bool alive() const { return !m_dead; }
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

private:
    HostClient() = default;
    [[noreturn]] void died(const std::string &phase);

    std::unique_ptr<SandboxedProcess> m_process;
    std::string m_slot;
    std::string m_buffer;
    nlohmann::ordered_json m_hostProtections = nlohmann::ordered_json::object();
    bool m_dead = false;
    int m_abi = 0;
    std::mt19937_64 m_random{std::random_device{}()}; // the requests' nonces
};

} // namespace kforge::runtime::host
