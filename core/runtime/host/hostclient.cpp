#include "core/runtime/host/hostclient.h"

#include "core/runtime/host/hostprotocol.h"
#include "core/runtime/host/sandbox.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

extern char **environ;

namespace kforge::runtime::host {

namespace {

// The file buildcache.py writes into a finished build's folder (torchworker/kforge_torchworker/buildcache.py).
constexpr const char *kBuildMarker = "kforge-built";
// A build is copied without its symbolic links (a host's link to a file it cannot read must not become a copy
// of that file in the judge's cache).
constexpr auto kCopyBuild = std::filesystem::copy_options::recursive | std::filesystem::copy_options::skip_symlinks;

bool isBuild(const std::filesystem::directory_entry &entry)
{
    std::error_code ec;
    return entry.symlink_status(ec).type() == std::filesystem::file_type::directory
           && std::filesystem::symlink_status(entry.path() / kBuildMarker, ec).type() == std::filesystem::file_type::regular;
}

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

// The judge's environment, less what the host gets its own value for.
std::vector<std::string> hostEnvironment()
{
    std::vector<std::string> env;
    for (char **e = environ; e && *e; ++e) {
        const std::string kv = *e;
        const std::string key = kv.substr(0, kv.find('='));
        if (key == "CUDA_MODULE_LOADING" || key == "CUDA_CACHE_DISABLE" || key == "HOME" || key == "TMPDIR"
            || key == "CUDA_INJECTION64_PATH" || key == "LD_PRELOAD")
            continue;
        env.push_back(kv);
    }
    // Lazy loading hung the first cross-process batch in the probe (shared/probes/ipc_timing).
    env.push_back("CUDA_MODULE_LOADING=EAGER");
    env.push_back("CUDA_CACHE_DISABLE=1");
    return env;
}

std::string describeStatus(int status)
{
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const char *name = ::strsignal(sig);
        return "was killed by signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : "");
    }
    if (WIFEXITED(status))
        return "exited with status " + std::to_string(WEXITSTATUS(status));
    return "ended (wait status " + std::to_string(status) + ")";
}

} // namespace

HostClient::~HostClient()
{
    // A spare still booting, or a host whose init is still running (a prebuild), is just ended.
    if (m_process && !m_dead && m_bootNonce.empty() && m_initNonce.empty()) {
        try {
            request(Json{{"op", kOpExit}}, 2, "exit");
        } catch (const HostFailure &) {
        }
    }
    // ~SandboxedProcess kills what is left of the tree, reaps it and removes the directory.
}

pid_t HostClient::pid() const
{
    return m_process ? m_process->pid() : -1;
}

void HostClient::kill()
{
    if (m_process)
        m_process->killTree();
    m_dead = true;
    m_frozen = false; // nothing is left to continue (and the number may be reused)
}

Json HostClient::protections() const
{
    Json j = m_process ? m_process->protections().toJson() : Json::object();
    for (const auto &[k, v] : m_hostProtections.items()) {
        if (k == "notes" && j.contains("notes") && j["notes"].is_array() && v.is_array()) {
            for (const auto &n : v)
                j["notes"].push_back(n);
        } else if (v.is_boolean() && j.contains(k) && j[k].is_boolean()) {
            j[k] = j[k].get<bool>() || v.get<bool>(); // the host applies landlock and seccomp itself
        } else if (!j.contains(k)) {
            j[k] = v;
        }
    }
    j["host_pid"] = static_cast<long long>(pid());
    j["stopped_between_requests"] = m_freeze;
    return j;
}

std::string HostClient::stdoutText(bool &truncated) const
{
    truncated = false;
    return m_process ? m_process->readStdout(truncated) : std::string();
}

std::string HostClient::stderrTail(std::size_t bytes) const
{
    bool truncated = false;
    std::string err = m_process ? m_process->readStderr(truncated) : std::string();
    if (err.size() > bytes)
        err = err.substr(err.size() - bytes);
    while (!err.empty() && (err.back() == '\n' || err.back() == '\r'))
        err.pop_back();
    return err;
}

bool HostClient::outputTruncated() const
{
    if (!m_process)
        return false;
    bool out = false, err = false;
    m_process->readStdout(out);
    m_process->readStderr(err);
    return out || err;
}

std::optional<int> HostClient::exitAndWait(double timeoutS)
{
    if (!m_process)
        return std::nullopt;
    if (!m_dead) {
        try {
            request(Json{{"op", kOpExit}}, std::min(timeoutS, 10.0), "exit");
        } catch (const HostFailure &) {
        }
    }
    const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeoutS));
    while (m_process->running() && Clock::now() < until)
        ::usleep(10000);
    m_dead = true;
    if (m_process->running()) {
        m_process->killTree();
        return std::nullopt;
    }
    return m_process->exitStatus();
}

void HostClient::died(const std::string &phase)
{
    m_dead = true;
    // The channel closed: wait a little for the exit status, then make sure nothing of the tree is left.
    const auto until = Clock::now() + std::chrono::milliseconds(500);
    while (m_process->running() && Clock::now() < until)
        ::usleep(5000);
    std::string how = "ended";
    if (m_process->running()) {
        m_process->killTree();
        m_process->running();
        how = "closed its channel";
    }
    if (const std::optional<int> status = m_process->exitStatus())
        how = describeStatus(*status);
    m_process->killTree();
    const std::string tail = stderrTail(600);
    throw HostFailure{"crashed", "the " + m_slot + "'s process (pid " + std::to_string(m_process->pid()) + ") " + how
                                     + " in " + phase + (tail.empty() ? std::string() : "; its stderr ends: " + tail)};
}

Json HostClient::request(const Json &req, double timeoutS, const std::string &phase)
{
    if (!m_bootNonce.empty() && !settle(timeoutS))
        throw HostFailure{"crashed", "the " + m_slot + "'s process failed to boot (" + phase + ")"};
    const std::string nonce = send(req, phase);
    Json reply = await(nonce, timeoutS, phase);
    if (req.value("op", std::string()) != kOpExit)
        freeze();
    return reply;
}

void HostClient::setFrozenBetweenRequests(bool on)
{
    m_freeze = on;
    if (!on)
        thaw();
}

void HostClient::freeze()
{
    if (!m_freeze || m_frozen || m_dead || !m_process || m_process->pid() <= 0)
        return;
    // The group, not the process: a child the host forked is stopped with it (seccomp keeps every process of
    // the tree in the host's group: setsid is refused, setpgid does nothing).
    if (::kill(-m_process->pid(), SIGSTOP) == 0)
        m_frozen = true;
}

void HostClient::thaw()
{
    if (!m_frozen)
        return;
    m_frozen = false;
    if (m_process && m_process->pid() > 0)
        ::kill(-m_process->pid(), SIGCONT);
}

std::string HostClient::send(const Json &req, const std::string &phase)
{
    if (m_dead)
        throw HostFailure{"crashed", "the " + m_slot + "'s process is gone (" + phase + ")"};
    thaw();
    const int fd = m_process->channelFd();
    // Each request carries a fresh random nonce the host echoes: a line the candidate's code (or a process it
    // forked) writes to the channel answers no request and is caught, instead of being taken for the next answer.
    Json withNonce = req;
    const std::string nonce = std::to_string(m_random()) + "-" + std::to_string(m_random());
    withNonce["nonce"] = nonce;
    const std::string line = withNonce.dump() + "\n";
    std::size_t sent = 0;
    while (sent < line.size()) {
        const ssize_t n = ::send(fd, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            died(phase);
        sent += static_cast<std::size_t>(n);
    }
    return nonce;
}

Json HostClient::await(const std::string &nonce, double timeoutS, const std::string &phase)
{
    if (m_dead)
        throw HostFailure{"crashed", "the " + m_slot + "'s process is gone (" + phase + ")"};
    const int fd = m_process->channelFd();
    const auto deadline = Clock::now()
                          + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeoutS));
    for (;;) {
        const std::size_t nl = m_buffer.find('\n');
        if (nl != std::string::npos) {
            const std::string answer = m_buffer.substr(0, nl);
            m_buffer.erase(0, nl + 1);
            try {
                Json j = Json::parse(answer);
                if (!j.is_object() || !j.contains("ok") || !j["ok"].is_boolean())
                    throw HostFailure{"crashed", "the " + m_slot + "'s process answered without \"ok\" in " + phase};
                if (!j.contains("nonce") || j["nonce"] != nonce) {
                    kill();
                    throw HostFailure{"crashed", "the " + m_slot + "'s process wrote a line to its channel that answers "
                                                     "no request of the judge in " + phase
                                                     + " (its code, or a process it started, tampered with the channel): "
                                                     + answer.substr(0, 160)};
                }
                j.erase("nonce");
                return j;
            } catch (const nlohmann::json::exception &) {
                kill();
                throw HostFailure{"crashed", "the " + m_slot + "'s process wrote an unreadable answer in " + phase};
            }
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) {
            kill();
            throw HostFailure{"timeout", "the " + m_slot + "'s process did not answer within "
                                             + std::to_string(static_cast<int>(timeoutS + 0.5)) + " s in " + phase
                                             + " and was killed"};
        }
        pollfd p{fd, POLLIN, 0};
        const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        char chunk[65536];
        const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            died(phase);
        m_buffer.append(chunk, static_cast<std::size_t>(n));
        if (m_buffer.size() > (64u << 20)) { // no honest answer is this long
            kill();
            throw HostFailure{"crashed", "the " + m_slot + "'s process flooded its channel in " + phase};
        }
    }
}

std::unique_ptr<HostClient> HostClient::spawn(const HostStart &how, std::string &error)
{
    std::unique_ptr<HostClient> client(new HostClient);
    client->m_slot = how.slot;
    client->m_kind = how.kind;
    SandboxOptions options;
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::absolute(how.executable, ec);
    options.argv = how.wrapper;
    if (how.kind == HostKind::Module) {
        // -I: no user site-packages, no PYTHON* variables, not the script's directory on sys.path (nothing read
        // from a place a candidate can write); -B: no bytecode written.
        for (const std::string &a : {how.module.python, std::string("-I"), std::string("-B"), how.module.script,
                                     std::string("--device"), std::to_string(how.device)})
            options.argv.push_back(a);
    } else {
        for (const std::string &a : {exe.string(), std::string("--candidate-host"), std::string("3"),
                                     std::string("--device"), std::to_string(how.device)})
            options.argv.push_back(a);
    }
    options.env = hostEnvironment();
    for (const std::string &kv : how.environment) {
        const std::string key = kv.substr(0, kv.find('=') + 1);
        std::erase_if(options.env, [&key](const std::string &e) { return e.starts_with(key); });
        options.env.push_back(kv);
    }
    // HOME is set by the host to its private directory (the sandbox's cwd, which also sets TMPDIR there).
    options.tempParent = how.tempParent;
    options.outputCapBytes = how.outputCapBytes;
    client->m_process = SandboxedProcess::spawn(options, error);
    if (!client->m_process)
        return nullptr;
    return client;
}

std::unique_ptr<HostClient> HostClient::spawnSpare(const HostStart &how, std::string &error)
{
    const auto t0 = Clock::now();
    HostStart spare = how;
    spare.slot = "spare";
    std::unique_ptr<HostClient> client = spawn(spare, error);
    if (!client)
        return nullptr;
    client->m_startMs["spawn"] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    try {
        Json boot{{"op", kOpBoot}};
        if (how.kind == HostKind::Module && !how.module.profiler.empty())
            boot["profiler"] = how.module.profiler;
        client->m_bootNonce = client->send(boot, "booting a spare host");
    } catch (const HostFailure &f) {
        error = f.message;
        return nullptr;
    }
    return client;
}

bool HostClient::settle(double timeoutS)
{
    if (m_bootNonce.empty())
        return !m_dead;
    const std::string nonce = std::exchange(m_bootNonce, std::string());
    const auto t0 = Clock::now();
    try {
        m_bootReply = await(nonce, timeoutS, "booting a spare host");
    } catch (const HostFailure &) {
        kill();
        return false;
    }
    m_startMs["boot_wait"] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (!m_bootReply.value("ok", false)) {
        kill();
        return false;
    }
    return true;
}

std::unique_ptr<HostClient> HostClient::start(const HostStart &how, std::string &code, std::string &message,
                                              std::unique_ptr<HostClient> spare)
{
    std::unique_ptr<HostClient> client = begin(how, code, message, std::move(spare));
    if (!client || !client->finishStart(how, how.initTimeoutS, code, message))
        return nullptr;
    return client;
}

std::unique_ptr<HostClient> HostClient::begin(const HostStart &how, std::string &code, std::string &message,
                                              std::unique_ptr<HostClient> spare)
{
    std::unique_ptr<HostClient> client;
    if (spare && how.wrapper.empty() && how.environment.empty() && spare->settle(how.initTimeoutS)) {
        client = std::move(spare);
        client->m_slot = how.slot;
    } else {
        const auto t0 = Clock::now();
        std::string error;
        client = spawn(how, error);
        if (!client) {
            code = "internal";
            message = "cannot start the " + how.slot + "'s process: " + error;
            return nullptr;
        }
        client->m_startMs["spawn"] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    }
    const bool module = how.kind == HostKind::Module;
    const std::filesystem::path library
        = client->m_process->tempDir()
          / (module ? std::filesystem::path(how.module.fileName).filename() : std::filesystem::path("library.so"));
    {
        std::ofstream out(library, std::ios::binary | std::ios::trunc);
        out.write(how.library.data(), static_cast<std::streamsize>(how.library.size()));
        if (!out) {
            code = "load_failed";
            message = "cannot write " + library.string();
            return nullptr;
        }
    }
    // A module's earlier extension builds, lent as copies (the host may write its own directory only).
    const std::filesystem::path builds = client->m_process->tempDir() / "extensions";
    if (module && !how.module.extensions.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(builds, ec);
        for (const auto &entry : std::filesystem::directory_iterator(how.module.extensions, ec))
            if (isBuild(entry))
                std::filesystem::copy(entry.path(), builds / entry.path().filename(), kCopyBuild, ec);
    }
    HostRestrictions restrictions;
    restrictions.writableDir = client->m_process->tempDir();
    try {
        Json init{{"op", kOpInit},
                  {"device", how.device},
                  {"slot", how.slot},
                  {"library", library.string()},
                  {"restrictions", restrictions.toJson()}};
        if (module) {
            init["guard"] = how.module.guardLibrary;
            for (const auto &[k, v] : how.module.init.items())
                init[k] = v;
            if (!how.module.extensions.empty())
                init["extensions"] = builds.string();
        }
        if (!client->m_bootNonce.empty() && !client->settle(how.initTimeoutS))
            throw HostFailure{"crashed", "the " + client->m_slot + "'s process failed to boot"};
        client->m_initSent = Clock::now();
        client->m_initNonce = client->send(init, module ? "loading the module" : "loading the library");
    } catch (const HostFailure &f) {
        code = f.verdict;
        message = f.message;
        return nullptr;
    }
    return client;
}

bool HostClient::initAnswered()
{
    if (m_initNonce.empty() || m_dead || m_buffer.find('\n') != std::string::npos)
        return true;
    pollfd p{m_process->channelFd(), POLLIN, 0};
    return ::poll(&p, 1, 0) > 0; // an answer, or the channel closed (finishStart then reports the death)
}

bool HostClient::finishStart(const HostStart &how, double timeoutS, std::string &code, std::string &message)
{
    const bool module = how.kind == HostKind::Module;
    const std::string nonce = std::exchange(m_initNonce, std::string());
    try {
        const Json reply = await(nonce, timeoutS, module ? "loading the module" : "loading the library");
        m_startMs["init_wall"] = std::chrono::duration<double, std::milli>(Clock::now() - m_initSent).count();
        if (module && !how.module.extensions.empty()) {
            // The builds this init made, kept for the next host of the same module (never over an earlier one).
            // Also after a refusal: a build that finished before the module failed is the module's all the same.
            std::error_code ec;
            for (const auto &entry : std::filesystem::directory_iterator(m_process->tempDir() / "extensions", ec)) {
                const std::filesystem::path kept = how.module.extensions / entry.path().filename();
                if (isBuild(entry) && !std::filesystem::exists(kept, ec)) {
                    std::filesystem::copy(entry.path(), kept.string() + ".part", kCopyBuild, ec);
                    if (!ec)
                        std::filesystem::rename(kept.string() + ".part", kept, ec);
                    std::filesystem::remove_all(kept.string() + ".part", ec);
                }
            }
        }
        m_initReply = reply;
        if (!reply["ok"].get<bool>()) {
            code = reply.value("code", std::string("load_failed"));
            message = reply.value("message", std::string("the host refused the library"));
            return false;
        }
        m_hostProtections = reply.value("protections", Json::object());
        m_abi = reply.value("abi", 0);
        const Json initMs = reply.value("init_ms", Json::object()); // a temporary would not outlive the loop
        for (const auto &[k, v] : initMs.items())
            m_startMs[k] = v;
        freeze();
    } catch (const HostFailure &f) {
        code = f.verdict;
        message = f.message;
        return false;
    }
    return true;
}

} // namespace kforge::runtime::host
