// A module's load_inline builds made ahead of its evaluation (kforge-worker's op prebuild), without a GPU: the
// worker answers at once and keeps serving while a sandboxed module host builds the module's tiny C++ extension
// into the judge's cache; a second module waits for its turn (--prebuild-jobs 1) and fails with its step named;
// the module host an evaluation would start then finds the build in the cache (the same folder, keyed by the
// module's bytes) and imports it instead of compiling; a later worker finds it cached.
#include "core/runtime/host/hostclient.h"
#include "core/runtime/host/proctree.h"
#include "core/runtime/host/sandbox.h"
#include "core/runtime/worker/workerprocess.h"
#include "tests/core/runtime/workertest.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

using namespace kforge::runtime;
using namespace kforge::runtime::test;
using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

const std::string kInline = "import torch\n"
                            "from torch.utils.cpp_extension import load_inline\n"
                            "_ext = load_inline(name='kforge_prebuild_probe', functions=['thrice'],\n"
                            "    cpp_sources=['torch::Tensor thrice(torch::Tensor x) { return x * 3; }'])\n"
                            "class ModelNew(torch.nn.Module):\n"
                            "    def __init__(self, n):\n"
                            "        super().__init__()\n"
                            "        self.n = n\n"
                            "    def forward(self, x):\n"
                            "        return _ext.thrice(x)\n";
const std::string kBroken = "import torch\nraise RuntimeError('kforge-prebuild-broken')\n";

Json prebuild(WorkerClient &w, const std::string &path, Json extra = Json::object())
{
    Json req{{"op", "prebuild"}, {"path", path}};
    for (const auto &[k, v] : extra.items())
        req[k] = v;
    const WorkerClient::Reply r = w.request(req, 30);
    KF_CHECK_MSG(r.ok(), r.detail);
    return r.ok() ? r.message : Json::object();
}

// Asks again until the state is no longer queued or building (the same module answers its own state).
Json until(WorkerClient &w, const std::string &path, double limitS)
{
    const auto t0 = Clock::now();
    Json last;
    while (since(t0) < limitS) {
        last = prebuild(w, path);
        const std::string state = last.value("state", std::string());
        if (state != "queued" && state != "building")
            return last;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    return last;
}

// The judge's cache folder that holds `bytes` (module.py), as the worker made it.
fs::path folderOf(const fs::path &cache, const std::string &bytes)
{
    std::error_code ec;
    for (const auto &e : fs::recursive_directory_iterator(cache, ec)) {
        if (e.path().filename() != "module.py")
            continue;
        std::ifstream in(e.path(), std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        if (s.str() == bytes)
            return e.path().parent_path();
    }
    return {};
}

} // namespace

int main()
{
    if (std::system((std::string("'") + KFORGE_TORCH_PYTHON + "' -c 'import torch' 2>/dev/null").c_str()) != 0)
        skip(std::string("no torch in ") + KFORGE_TORCH_PYTHON);
    const std::string canBuild = std::string("'") + KFORGE_TORCH_PYTHON
                                 + "' -c 'import os, sys, torch.utils.cpp_extension as e; e.verify_ninja_availability(); "
                                   "sys.exit(0 if any(os.path.isfile(os.path.join(p, \"torch\", \"extension.h\")) "
                                   "for p in e.include_paths() + [\"/usr/include\"]) else 1)' >/dev/null 2>&1";
    if (std::system(canBuild.c_str()) != 0)
        skip("no ninja or torch/extension.h for load_inline");
    host::becomeSubreaper();
    ScratchDir dir;
    const fs::path cache = dir.path() / "extension-cache";
    ::setenv("KFORGE_EXTENSION_CACHE", cache.c_str(), 1);
    const fs::path inlinePy = dir.path() / "inline_cand.py";
    const fs::path brokenPy = dir.path() / "broken_cand.py";
    std::ofstream(inlinePy) << kInline;
    std::ofstream(brokenPy) << kBroken;

    std::string error;
    WorkerClient w({workerPath(), "--torch-python", KFORGE_TORCH_PYTHON, "--prebuild-jobs", "1", "--no-spare-host"});
    KF_CHECK_MSG(w.start(error), error);

    // Refused: a kernel's name, and a module that cannot be read.
    const WorkerClient::Reply cu = w.request(Json{{"op", "prebuild"}, {"path", (dir.path() / "k.cu").string()}}, 30);
    KF_CHECK_MSG(cu.ok() && !cu.message.value("ok", true), cu.message.dump());
    KF_CHECK_CONTAINS(cu.message["error"].value("message", std::string()), "compiled by the client");

    // Answered at once while the build runs; the second module waits for the one job.
    auto t0 = Clock::now();
    const Json first = prebuild(w, inlinePy.string(), Json{{"init_args", Json::array({4})}});
    const double answeredS = since(t0);
    KF_CHECK_MSG(first.value("ok", false) && first.value("state", std::string()) == "building", first.dump());
    KF_CHECK_MSG(answeredS < 10, "prebuild took " + std::to_string(answeredS) + " s to answer");
    KF_CHECK_MSG(first.value("jobs", 0) == 1, first.dump());
    const Json second = prebuild(w, brokenPy.string());
    KF_CHECK_MSG(second.value("state", std::string()) == "queued", second.dump());
    t0 = Clock::now();
    const WorkerClient::Reply hello = w.request(Json{{"op", "hello"}, {"protocol", 1}}, 10);
    KF_CHECK_MSG(hello.ok() && hello.message.value("ok", false) && since(t0) < 3, "hello while building: " + hello.detail);

    const Json built = until(w, inlinePy.string(), 280);
    KF_CHECK_MSG(built.value("state", std::string()) == "built", built.dump());
    const Json builds = built.value("builds", Json::array());
    KF_CHECK_MSG(builds.size() == 1 && !builds[0].value("hit", true)
                     && builds[0].value("name", std::string()) == "kforge_prebuild_probe",
                 builds.dump());
    const double buildS = builds.empty() ? 0 : builds[0].value("seconds", 0.0);
    const Json failed = until(w, brokenPy.string(), 120);
    KF_CHECK_MSG(failed.value("state", std::string()) == "failed", failed.dump());
    KF_CHECK_CONTAINS(failed.value("message", std::string()), "import");
    KF_CHECK_CONTAINS(failed.value("message", std::string()), "kforge-prebuild-broken");

    // The build is in the judge's cache, in the folder of the module's bytes.
    const fs::path folder = folderOf(cache, kInline);
    KF_CHECK_MSG(!folder.empty(), "no cache folder holds the module");
    std::size_t kept = 0;
    std::error_code ec;
    for (const auto &e : fs::recursive_directory_iterator(cache, ec))
        kept += e.path().filename() == "kforge-built" ? 1 : 0;
    KF_CHECK_MSG(kept == 1, std::to_string(kept) + " builds in the cache");

    // The host an evaluation starts (WorkerServer::moduleStart: that folder as HostStart::module.extensions)
    // imports the build instead of compiling it.
    if (!folder.empty()) {
        host::HostStart how;
        how.kind = host::HostKind::Module;
        how.module.python = KFORGE_TORCH_PYTHON;
        how.module.script = KFORGE_MODULE_HOST;
        how.module.guardLibrary = KFORGE_HOSTGUARD;
        how.module.fileName = "inline_cand.py";
        how.module.init = Json{{"class", "ModelNew"}, {"init_args", Json::array({4})}, {"seed", 0}, {"mode", "eval"}};
        how.module.extensions = folder;
        how.slot = "candidate";
        how.device = -1;
        how.tempParent = dir.path();
        how.library = kInline;
        how.initTimeoutS = 120;
        std::string code, message;
        const auto client = host::HostClient::start(how, code, message);
        KF_CHECK_MSG(client != nullptr, code + ": " + message);
        const Json later = client ? client->initReply().value("builds", Json::array()) : Json::array();
        KF_CHECK_MSG(later.size() == 1 && later[0].value("hit", false), later.dump());
        const double hitS = later.empty() ? -1 : later[0].value("seconds", 0.0);
        KF_CHECK_MSG(hitS >= 0 && hitS < buildS, "imported in " + std::to_string(hitS) + " s, built in "
                                                      + std::to_string(buildS) + " s");
        std::printf("prebuild: answered in %.2f s, built ahead in %.1f s; the evaluation's host imported it in %.2f s\n",
                    answeredS, buildS, hitS);
    }

    // A later worker finds the module built and starts nothing.
    w.request(Json{{"op", "shutdown"}}, 10);
    w.waitExit(10);
    WorkerClient again({workerPath(), "--torch-python", KFORGE_TORCH_PYTHON, "--no-spare-host"});
    KF_CHECK_MSG(again.start(error), error);
    const Json cached = prebuild(again, inlinePy.string());
    KF_CHECK_MSG(cached.value("state", std::string()) == "cached", cached.dump());
    again.request(Json{{"op", "shutdown"}}, 10);
    return finish("tst_module_prebuild");
}
