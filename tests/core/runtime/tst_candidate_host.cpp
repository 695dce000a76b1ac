// The candidate host (core/runtime/host: hostclient, candidatehost) against the real kforge-worker, without a
// GPU: init loads and checks a library in its own sandboxed process (ABI, entry), a library that exits while
// loading is reported as crashed with its status, one that hangs (after forking a setsid grandchild) as a
// timeout naming the phase with its whole tree gone, requests the host refuses come back as refusals, and the
// IPC handles' hex encoding round-trips. Where there is a GPU the map of no buffers succeeds instead of
// answering no_device.
#include "workertest.h"

#include "core/runtime/host/hostclient.h"
#include "core/runtime/host/hostprotocol.h"
#include "core/runtime/host/sandbox.h"
#include "kforge/kernel.h"

#include <csignal>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

using namespace kforge::runtime;
using namespace kforge::runtime::test;

namespace {

std::string readAll(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

host::HostStart startOf(const std::string &library, const fs::path &dir, double initTimeoutS = host::kInitTimeoutS)
{
    host::HostStart how;
    how.executable = workerPath();
    how.slot = "candidate";
    how.tempParent = dir;
    how.library = readAll(library);
    how.initTimeoutS = initTimeoutS;
    return how;
}

bool processGone(pid_t pid)
{
    for (int i = 0; i < 100; ++i) {
        if (::kill(pid, 0) != 0)
            return true;
        ::usleep(20000);
    }
    return false;
}

// Live (not zombie) processes whose parent is this one, as "pid (comm)" lines.
std::string liveChildren()
{
    std::string out;
    for (const auto &e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream in(e.path() / "stat");
        std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::size_t close = stat.rfind(')');
        if (close == std::string::npos)
            continue;
        std::istringstream rest(stat.substr(close + 2));
        char state = 0;
        long ppid = 0;
        rest >> state >> ppid;
        if (ppid == ::getpid() && state != 'Z')
            out += name + " " + stat.substr(0, close + 1) + "\n";
    }
    return out;
}

} // namespace

int main()
{
    host::becomeSubreaper(); // as the worker does: escaped grandchildren come back to us
    const ScratchDir dir;
    // The fixtures need no GPU to build; sm_90 is what the GPU host has.
    const auto so = compileFixtures({{"good", "kernels/scale_good.cu"},
                                     {"wrong_abi", "kernels/wrong_abi.cu"},
                                     {"no_entry", "kernels/no_entry.cu"},
                                     {"exit_at_load", "kernels/host_exit_at_load.cu"},
                                     {"hang_at_load", "kernels/host_hang_at_load.cu"}},
                                    dir.path(), "sm_90");

    // Hex handles round-trip; malformed text is refused.
    {
        unsigned char bytes[64], back[64];
        for (int i = 0; i < 64; ++i)
            bytes[i] = static_cast<unsigned char>(i * 37 + 5);
        const std::string hex = host::toHex(bytes, sizeof bytes);
        KF_CHECK(hex.size() == 128 && host::fromHex(hex, back, sizeof back) && std::memcmp(bytes, back, 64) == 0);
        KF_CHECK(!host::fromHex(hex.substr(1), back, sizeof back));
        KF_CHECK(!host::fromHex(std::string(128, 'g'), back, sizeof back));
        const host::CallSpec call = host::callFromJson(host::toJson(host::CallSpec{{{0, 256}, {0, 512}}, {{2, 1024}}}));
        KF_CHECK(call.inputs.size() == 2 && call.inputs[1].offset == 512 && call.outputs[0].buffer == 2);
    }

    std::string code, message;
    // A good library: loaded in its own process group, with the host's report merged into the protections.
    {
        auto h = host::HostClient::start(startOf(so.at("good"), dir.path()), code, message);
        KF_CHECK_MSG(h != nullptr, code + ": " + message);
        if (h) {
            KF_CHECK(h->abi() == KF_ABI_VERSION && h->alive());
            const Json p = h->protections();
            KF_CHECK_MSG(p.value("own_process_group", false) && p.value("no_inherited_fds", false), p.dump());
            KF_CHECK(p.value("host_pid", 0) == h->pid() && h->pid() != ::getpid());
            std::printf("protections: %s\n", p.dump().c_str());
            // An unknown op and a batch before any mapping are refused, and the host stays up.
            const Json unknown = h->request(Json{{"op", "nonsense"}}, 10, "test");
            KF_CHECK(!unknown.value("ok", true) && unknown.value("code", "") == "bad_request");
            const Json batch = h->request(Json{{"op", "batch"}, {"go", 0}, {"done", 1}, {"calls", Json::array()}}, 10,
                                          "test");
            KF_CHECK(!batch.value("ok", true));
            const Json map = h->request(Json{{"op", "map"},
                                             {"task", toJson(fixtureTask("scale"))},
                                             {"buffers", Json::array()},
                                             {"events", Json::array()}},
                                        30, "test");
            KF_CHECK_MSG(map.value("ok", false) || map.value("code", "") == "no_device", map.dump());
            KF_CHECK(h->alive());
            const pid_t pid = h->pid();
            h.reset(); // exit, then the sandbox reaps the tree
            KF_CHECK(processGone(pid));
        }
    }
    // A spare host: spawned and booting before it knows its library; a start that takes it gives the same
    // host as a fresh one (its boot answered first), with the boot's wait and the host's steps in startMs.
    {
        std::string error;
        auto spare = host::HostClient::spawnSpare(startOf(so.at("good"), dir.path()), error);
        KF_CHECK_MSG(spare != nullptr, error);
        const pid_t sparePid = spare ? spare->pid() : -1;
        auto h = host::HostClient::start(startOf(so.at("good"), dir.path()), code, message, std::move(spare));
        KF_CHECK_MSG(h != nullptr, code + ": " + message);
        if (h) {
            KF_CHECK(h->pid() == sparePid && h->abi() == KF_ABI_VERSION && h->slot() == "candidate");
            const Json ms = h->startMs();
            KF_CHECK_MSG(ms.contains("spawn") && ms.contains("boot_wait") && ms.contains("context")
                             && ms.contains("library"),
                         ms.dump());
            const Json p = h->protections();
            KF_CHECK_MSG(p.value("own_process_group", false) && p.value("no_inherited_fds", false), p.dump());
            h.reset();
            KF_CHECK(processGone(sparePid));
        }
        // A spare that died before it was taken: the start spawns a host of its own.
        spare = host::HostClient::spawnSpare(startOf(so.at("good"), dir.path()), error);
        KF_CHECK_MSG(spare != nullptr, error);
        if (spare) {
            const pid_t dead = spare->pid();
            ::kill(dead, SIGKILL);
            h = host::HostClient::start(startOf(so.at("good"), dir.path()), code, message, std::move(spare));
            KF_CHECK_MSG(h != nullptr, code + ": " + message);
            KF_CHECK(h && h->pid() != dead && h->abi() == KF_ABI_VERSION && !h->startMs().contains("boot_wait"));
        }
        // A spare dropped while it boots ends at once with its tree.
        spare = host::HostClient::spawnSpare(startOf(so.at("good"), dir.path()), error);
        if (spare) {
            const pid_t p = spare->pid();
            const auto t0 = std::chrono::steady_clock::now();
            spare.reset();
            KF_CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 2);
            KF_CHECK(processGone(p));
        }
    }
    // Load errors: the host's own checks, with the worker's codes.
    {
        KF_CHECK(!host::HostClient::start(startOf(so.at("wrong_abi"), dir.path()), code, message));
        KF_CHECK_MSG(code == "abi_mismatch", code + ": " + message);
        KF_CHECK_CONTAINS(message, "kernel ABI v99");
        KF_CHECK(!host::HostClient::start(startOf(so.at("no_entry"), dir.path()), code, message));
        KF_CHECK_MSG(code == "missing_entry", code + ": " + message);
    }
    // A library that exits while loading: crashed, with its status.
    {
        KF_CHECK(!host::HostClient::start(startOf(so.at("exit_at_load"), dir.path()), code, message));
        KF_CHECK_MSG(code == "crashed", code + ": " + message);
        KF_CHECK_CONTAINS(message, "exited with status 9");
        KF_CHECK_CONTAINS(message, "loading the library");
    }
    // A library that hangs while loading, after forking a setsid grandchild: timeout, and the tree is gone.
    {
        const auto t0 = std::chrono::steady_clock::now();
        KF_CHECK(!host::HostClient::start(startOf(so.at("hang_at_load"), dir.path(), 2), code, message));
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        KF_CHECK_MSG(code == "timeout", code + ": " + message);
        KF_CHECK_CONTAINS(message, "loading the library");
        KF_CHECK_MSG(s < 10, std::to_string(s) + " s");
        // Nothing of the tree is left: no live process has us (the subreaper) as its parent.
        std::string survivors;
        for (int i = 0; i < 100; ++i) {
            survivors = liveChildren();
            if (survivors.empty())
                break;
            ::usleep(20000);
        }
        KF_CHECK_MSG(survivors.empty(), "still running: " + survivors);
    }
    return finish("tst_candidate_host");
}
