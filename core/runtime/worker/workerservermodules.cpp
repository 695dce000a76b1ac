// The module hosts of kforge-worker (a torch task's modules, workerserver.h): where their interpreter, script,
// guard and profiler libraries are, their start, spares and built-in baseline module, the judge's cache of their
// own extension builds, and device_info's probe of their interpreter. Split from workerserver.cpp (the requests).
#include "core/runtime/worker/workerserver.h"

#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/kernellibrary.h"
#include "core/runtime/worker/nvcc.h"
#include "core/runtime/worker/protocol.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;

// The first of `candidates` that is a regular file; empty when none is.
std::filesystem::path firstFile(std::initializer_list<std::filesystem::path> candidates)
{
    for (const std::filesystem::path &p : candidates) {
        std::error_code ec;
        if (!p.empty() && std::filesystem::is_regular_file(p, ec))
            return p;
    }
    return {};
}

// The module host's script: $KFORGE_MODULE_HOST, where `install` puts it (<prefix>/share/kforge/torchworker),
// or the source tree's (a build tree's worker).
std::filesystem::path moduleHostScript()
{
    const char *env = std::getenv("KFORGE_MODULE_HOST");
    const std::filesystem::path prefix = std::filesystem::path(selfExecutable()).parent_path().parent_path();
    return firstFile({env ? std::filesystem::path(env) : std::filesystem::path(),
                      prefix / "share" / "kforge" / "torchworker" / "kforge-module-host",
                      std::filesystem::path(KFORGE_SOURCE_MODULE_HOST)});
}

// libkforge_hostguard.so: installed beside kforge-noop.so, or the build tree's.
std::filesystem::path hostGuardLibrary()
{
    const std::filesystem::path prefix = std::filesystem::path(selfExecutable()).parent_path().parent_path();
    return firstFile({prefix / KFORGE_INSTALL_LIBDIR / "kforge" / "libkforge_hostguard.so",
                      prefix / "lib" / "kforge" / "libkforge_hostguard.so", std::filesystem::path(KFORGE_BUILD_HOSTGUARD)});
}

// libkforge_moduleprofile.so (the module hosts' trace and metrics passes): installed beside kforge-noop.so, or
// the build tree's; empty for a worker built without the profiler.
std::filesystem::path moduleProfileLibrary()
{
#ifdef KFORGE_BUILD_MODULEPROFILE
    const std::filesystem::path prefix = std::filesystem::path(selfExecutable()).parent_path().parent_path();
    return firstFile({prefix / KFORGE_INSTALL_LIBDIR / "kforge" / "libkforge_moduleprofile.so",
                      prefix / "lib" / "kforge" / "libkforge_moduleprofile.so",
                      std::filesystem::path(KFORGE_BUILD_MODULEPROFILE)});
#else
    return {};
#endif
}

// The module of a torch task's timing baseline (WorkerServer::m_moduleBaseline): built with the outputs' dtypes
// and shapes, it returns fresh tensors of them and computes nothing.
constexpr const char *kBaselineModule = R"py("""KForge's timing baseline for a torch task's modules (kforge-worker): returns tensors
of the task's outputs without computing them, so its batches measure what a module host adds to every call (the
crossing, the outputs' copy into the judge's buffers); the judge subtracts it from both sides' batches."""
import torch

DTYPES = {'f32': torch.float32, 'f16': torch.float16, 'bf16': torch.bfloat16, 'f64': torch.float64,
          'i32': torch.int32, 'i64': torch.int64, 'u8': torch.uint8}


class Model(torch.nn.Module):
    def __init__(self, *outputs):
        super().__init__()
        self.specs = [(DTYPES[dtype], list(shape)) for dtype, shape in outputs]

    def forward(self, *args):
        device = next((a.device for a in args if isinstance(a, torch.Tensor)), None)
        if device is None:
            device = torch.device('cuda', torch.cuda.current_device()) if torch.cuda.is_available() else 'cpu'
        out = [torch.empty(shape, dtype=dtype, device=device) for dtype, shape in self.specs]
        return out[0] if len(out) == 1 else tuple(out)
)py";

// The judge's cache of modules' own extension builds (HostStart::module.extensions): $KFORGE_EXTENSION_CACHE,
// else $XDG_CACHE_HOME/kforge/module-extensions, else ~/.cache/kforge/module-extensions.
std::filesystem::path extensionCacheRoot()
{
    if (const char *env = std::getenv("KFORGE_EXTENSION_CACHE"); env && *env)
        return env;
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "kforge" / "module-extensions";
    const char *home = std::getenv("HOME");
    return home && *home ? std::filesystem::path(home) / ".cache" / "kforge" / "module-extensions" : std::filesystem::path();
}

// The cache folder of one module's builds under one interpreter: named by a hash of both, and holding the module's
// bytes (module.py), which must equal `bytes` exactly before anything in it is lent; empty when there is no cache
// (or a different module took the name). The most recently used kModulesKept folders are kept.
std::filesystem::path extensionFolder(const std::string &python, const std::string &bytes)
{
    constexpr std::size_t kModulesKept = 64;
    const std::filesystem::path root = extensionCacheRoot();
    if (root.empty())
        return {};
    std::error_code ec;
    const std::filesystem::path top = root / std::to_string(std::hash<std::string>{}(python));
    const std::filesystem::path dir = top / (std::to_string(std::hash<std::string>{}(bytes)) + "-" + std::to_string(bytes.size()));
    const std::filesystem::path copy = dir / "module.py";
    if (std::filesystem::exists(copy, ec)) {
        std::ifstream in(copy, std::ios::binary);
        std::ostringstream was;
        was << in.rdbuf();
        if (was.str() != bytes)
            return {};
    } else {
        std::filesystem::create_directories(dir, ec);
        std::ofstream out(copy, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out)
            return {};
    }
    std::filesystem::last_write_time(dir, std::filesystem::file_time_type::clock::now(), ec);
    std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> folders;
    for (const auto &e : std::filesystem::directory_iterator(top, ec))
        folders.emplace_back(e.last_write_time(ec), e.path());
    if (folders.size() > kModulesKept) {
        std::sort(folders.begin(), folders.end());
        for (std::size_t i = 0; i + kModulesKept < folders.size(); ++i)
            std::filesystem::remove_all(folders[i].second, ec);
    }
    return dir;
}

// Whether `dir` holds a finished build (a folder with buildcache.py's marker, as HostClient lends them).
bool holdsBuild(const std::filesystem::path &dir)
{
    std::error_code ec;
    for (const auto &e : std::filesystem::directory_iterator(dir, ec))
        if (e.is_directory(ec) && std::filesystem::is_regular_file(e.path() / "kforge-built", ec))
            return true;
    return false;
}

// A prebuild's module: `path` (a .py), or `source_base64` with its `filename`; throws ProtocolError.
void prebuildModuleOf(const Json &request, std::string &bytes, std::string &fileName)
{
    const auto path = request.find("path");
    const auto src = request.find("source_base64");
    const auto name = request.find(path != request.end() ? "path" : "filename");
    if ((path == request.end() && src == request.end()) || name == request.end() || !name->is_string())
        throw ProtocolError{protocol::kBadRequest, "prebuild needs the module: \"path\", or \"source_base64\" with "
                                                   "\"filename\""};
    fileName = std::filesystem::path(name->get<std::string>()).filename().string();
    if (!fileName.ends_with(".py") || fileName.size() <= 3)
        throw ProtocolError{protocol::kBadRequest, "prebuild builds a Python module's extensions: a file name ending "
                                                   "in .py (a .cu kernel is compiled by the client)"};
    if (path != request.end()) {
        std::ifstream in(path->get<std::string>(), std::ios::binary);
        if (!in)
            throw ProtocolError{protocol::kLoadFailed, "cannot read " + path->get<std::string>()};
        std::ostringstream s;
        s << in.rdbuf();
        bytes = s.str();
    } else if (!src->is_string() || !decodeBase64(src->get<std::string>(), bytes)) {
        throw ProtocolError{protocol::kBadRequest, "\"source_base64\" is not valid base64"};
    }
}

} // namespace

host::HostStart WorkerServer::moduleHostStart(const std::string &slot) const
{
    host::HostStart how = hostStart(slot);
    how.kind = host::HostKind::Module;
    how.module.python = m_torchPython;
    how.module.script = moduleHostScript().string();
    how.module.guardLibrary = hostGuardLibrary().string();
    if (how.module.python.empty())
        throw ProtocolError{protocol::kInternal, "no python3 on the worker's PATH for the module hosts of a torch task "
                                                 "(give one with --torch-python or KFORGE_TORCH_PYTHON)"};
    if (how.module.script.empty())
        throw ProtocolError{protocol::kInternal, "the module host kforge-module-host is not installed beside "
                                                     + selfExecutable() + " (../share/kforge/torchworker)"};
    if (how.module.guardLibrary.empty())
        throw ProtocolError{protocol::kInternal, "libkforge_hostguard.so (the module hosts' Landlock and seccomp "
                                                 "rules) is not installed beside "
                                                     + selfExecutable()};
    return how;
}

void WorkerServer::bootModuleSpares(std::size_t upTo)
{
    if (!m_sparesOn || !m_torchServed)
        return;
    while (m_moduleSpare.size() < upTo) {
        std::string error;
        std::unique_ptr<host::HostClient> spare;
        try {
            host::HostStart how = moduleHostStart("spare");
            how.module.profiler = moduleProfileLibrary().string();
            spare = host::HostClient::spawnSpare(how, error);
        } catch (const ProtocolError &) {
            return;
        }
        if (!spare)
            return;
        m_moduleSpare.push_back(std::move(spare));
    }
}

void WorkerServer::ensureModuleHost(Loaded &loaded, const Json &init, double timeoutS)
{
    if (loaded.host && loaded.host->alive() && loaded.init == init)
        return;
    awaitPrebuild(loaded.bytes);
    loaded.host.reset();
    loaded.initialState.clear();
    loaded.init = init;
    loaded.initTimeoutS = timeoutS;
    std::string code, message;
    if (!startHost(loaded, code, message))
        throw ProtocolError{code == "internal" ? std::string(protocol::kInternal) : std::string(protocol::kLoadFailed),
                            message};
}

host::HostStart WorkerServer::moduleStart(const Loaded &loaded) const
{
    host::HostStart how = moduleHostStart(loaded.slot);
    how.module.fileName = loaded.fileName;
    how.module.init = loaded.init;
    how.module.init["profiler"] = moduleProfileLibrary().string();
    how.module.extensions = extensionFolder(m_torchPython, loaded.bytes);
    how.initTimeoutS = loaded.initTimeoutS;
    return how;
}

void WorkerServer::ensureModuleBaseline(const TaskSpec &task, double initS)
{
    if (!m_moduleBaseline) {
        m_moduleBaseline = std::make_unique<Loaded>();
        m_moduleBaseline->slot = "baseline";
        m_moduleBaseline->module = true;
        m_moduleBaseline->fileName = "kforge_baseline.py";
        m_moduleBaseline->bytes = kBaselineModule;
    }
    Json outputs = Json::array();
    for (const TensorSpec &t : task.outputs)
        outputs.push_back(Json::array({std::string(dtypeName(t.dtype)), t.dims()}));
    ensureModuleHost(*m_moduleBaseline, Json{{"class", "Model"}, {"init_args", outputs}, {"seed", 0}, {"mode", "eval"}},
                     initS);
}

std::string WorkerServer::defaultTorchPython()
{
    const char *python = std::getenv("KFORGE_TORCH_PYTHON");
    return python && *python ? std::string(python) : findOnPath("python3");
}

// What the module hosts would run with: {"python", "version" (torch's) | null, "error" | null, "module_host",
// "guard"}. One run of the interpreter (importing torch takes a second or two), once per worker.
Json WorkerServer::torchProbe() const
{
    Json probe{{"python", m_torchPython},
               {"version", nullptr},
               {"error", nullptr},
               {"module_host", moduleHostScript().string()},
               {"guard", hostGuardLibrary().string()}};
    if (m_torchPython.empty()) {
        probe["error"] = "no python3 on the worker's PATH (give one with --torch-python or KFORGE_TORCH_PYTHON)";
        return probe;
    }
    std::string quoted = "'";
    for (char c : m_torchPython)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    quoted += "'";
    const std::string command = quoted + " -I -c 'import torch; print(torch.__version__)' 2>&1";
    std::string out;
    if (FILE *p = ::popen(command.c_str(), "r")) {
        char buffer[4096];
        std::size_t n;
        while ((n = std::fread(buffer, 1, sizeof buffer, p)) > 0 && out.size() < (1u << 16))
            out.append(buffer, n);
        const int status = ::pclose(p);
        while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
            out.pop_back();
        if (status == 0 && out.find('\n') == std::string::npos && !out.empty()) {
            probe["version"] = out;
            return probe;
        }
    }
    // The last line of the interpreter's answer names the cause ("ModuleNotFoundError: No module named 'torch'").
    const std::size_t last = out.rfind('\n');
    probe["error"] = out.empty() ? std::string("cannot run ") + m_torchPython
                                 : out.substr(last == std::string::npos ? 0 : last + 1);
    return probe;
}

// ------------------------------------------------------------------------------------------------ prebuild

std::size_t WorkerServer::defaultPrebuildJobs()
{
    return std::max(1u, std::thread::hardware_concurrency() / 2);
}

WorkerServer::Prebuild::~Prebuild()
{
    if (host)
        host->kill(); // a build still running when the worker leaves ends with it
}

Json WorkerServer::Prebuild::toJson() const
{
    Json j{{"file", fileName}, {"state", state}, {"builds", builds}};
    if (state != "queued" && state != "cached")
        j["seconds"] = std::round((state == "building" ? std::chrono::duration<double>(std::chrono::steady_clock::now()
                                                                                       - started).count()
                                                       : seconds) * 10) / 10;
    if (!message.empty())
        j["message"] = message;
    return j;
}

Json WorkerServer::opPrebuild(const Json &request)
{
    std::string bytes, fileName;
    prebuildModuleOf(request, bytes, fileName);
    if (bytes.starts_with("\x7f" "ELF"))
        throw ProtocolError{protocol::kBadRequest, fileName + " is a shared object, not a Python module"};
    const host::HostStart base = moduleHostStart("prebuild"); // throws when the hosts' pieces are missing
    auto known = std::find_if(m_prebuilds.begin(), m_prebuilds.end(), [&](const auto &p) { return p->bytes == bytes; });
    if (known == m_prebuilds.end()) {
        auto p = std::make_unique<Prebuild>();
        p->bytes = std::move(bytes);
        p->fileName = fileName;
        const auto args = request.find("init_args");
        p->init = Json{{"class", request.value("class", std::string("ModelNew"))},
                       {"init_args", args != request.end() && args->is_array() ? *args : Json(nullptr)},
                       {"seed", 0},
                       {"mode", "eval"},
                       {"profiler", ""}};
        p->how = base;
        p->how.device = -1; // no CUDA context: the host imports and constructs the module on the CPU
        p->how.module.fileName = fileName;
        p->how.module.init = p->init;
        p->how.module.extensions = extensionFolder(m_torchPython, p->bytes);
        p->how.library = p->bytes;
        p->how.initTimeoutS = kModuleInitS;
        // The GPU stays the judge's: the host sees none. torch then needs the architecture to build CUDA sources
        // for, which it would otherwise read off the visible device: the judge's device's, with PTX, as a host
        // with the device would choose it (unless the worker was started with its own TORCH_CUDA_ARCH_LIST).
        p->how.environment = {"CUDA_VISIBLE_DEVICES="};
        const char *arch = std::getenv("TORCH_CUDA_ARCH_LIST");
        if ((!arch || !*arch) && m_gpu.ensure())
            p->how.environment.push_back("TORCH_CUDA_ARCH_LIST=" + std::to_string(m_gpu.props().ccMajor) + "."
                                         + std::to_string(m_gpu.props().ccMinor) + "+PTX");
        if (p->how.module.extensions.empty()) {
            p->state = "failed";
            p->message = "the worker has no extension cache to build into (set KFORGE_EXTENSION_CACHE or HOME)";
        } else if (holdsBuild(p->how.module.extensions)) {
            p->state = "cached"; // built by an earlier host of this module; one it lacks is built at its evaluation
        }
        m_prebuilds.push_back(std::move(p));
        known = std::prev(m_prebuilds.end());
    }
    Prebuild &p = **known;
    pumpPrebuilds();
    Json reply = p.toJson();
    std::size_t building = 0, queued = 0;
    for (const auto &q : m_prebuilds) {
        building += q->state == "building";
        queued += q->state == "queued";
    }
    reply["building"] = building;
    reply["queued"] = queued;
    reply["jobs"] = m_prebuildJobs;
    return reply;
}

void WorkerServer::finishPrebuild(Prebuild &p, double timeoutS)
{
    std::string code, message;
    const bool ok = p.host->finishStart(p.how, timeoutS, code, message);
    p.builds = p.host->initReply().value("builds", Json::array());
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - p.started).count();
    p.state = ok ? "built" : "failed";
    if (!ok)
        p.message = code + ": " + message;
    if (!ok)
        p.host->kill(); // a refusal, or the host is gone; a host that built is asked to exit
    p.host.reset();
}

void WorkerServer::pumpPrebuilds()
{
    std::size_t running = 0;
    for (auto &p : m_prebuilds) {
        if (p->state != "building")
            continue;
        if (p->host->initAnswered()) {
            finishPrebuild(*p, 5);
        } else if (std::chrono::duration<double>(std::chrono::steady_clock::now() - p->started).count() > kModuleInitS) {
            p->host->kill();
            p->host.reset();
            p->state = "failed";
            p->message = "timeout: the build did not finish within " + std::to_string(int(kModuleInitS)) + " s";
        } else {
            ++running;
        }
    }
    for (auto &p : m_prebuilds) {
        if (running >= m_prebuildJobs)
            break;
        if (p->state != "queued")
            continue;
        std::string code, message;
        p->started = std::chrono::steady_clock::now();
        p->host = host::HostClient::begin(p->how, code, message);
        if (!p->host) {
            p->state = "failed";
            p->message = code + ": " + message;
            continue;
        }
        p->state = "building";
        ++running;
    }
    // Ended ones are kept for their state, the oldest dropped first.
    std::size_t ended = 0;
    for (const auto &p : m_prebuilds)
        ended += p->state != "queued" && p->state != "building";
    for (auto it = m_prebuilds.begin(); ended > kPrebuildsKept && it != m_prebuilds.end();) {
        if ((*it)->state != "queued" && (*it)->state != "building") {
            it = m_prebuilds.erase(it);
            --ended;
        } else {
            ++it;
        }
    }
}

void WorkerServer::awaitPrebuild(const std::string &bytes)
{
    const auto it = std::find_if(m_prebuilds.begin(), m_prebuilds.end(), [&](const auto &p) { return p->bytes == bytes; });
    if (it == m_prebuilds.end())
        return;
    Prebuild &p = **it;
    if (p.state == "queued") {
        p.state = "skipped";
        p.message = "evaluated before its turn: built by the evaluation's own host";
    } else if (p.state == "building") {
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - p.started).count();
        finishPrebuild(p, std::max(1.0, kPrebuildWaitS - spent));
    }
}

} // namespace kforge::runtime
