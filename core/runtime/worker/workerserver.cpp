#include "core/runtime/worker/workerserver.h"

#include "core/runtime/host/hostprotocol.h"
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/disassembler.h"
#include "core/runtime/worker/judgeoptions.h"
#include "core/runtime/worker/judge.h"
#include "core/runtime/worker/kernellibrary.h"
#include "core/runtime/worker/modulejudge.h"
#include "core/runtime/worker/nvcc.h"
#include "core/runtime/worker/protocol.h"
#include "core/runtime/worker/requestreader.h"
#include "core/runtime/worker/selftest.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

#ifndef KFORGE_WORKER_VERSION
#define KFORGE_WORKER_VERSION "0.0.0"
#endif

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;

std::string dump(const Json &j)
{
    // Kernel output may hold invalid UTF-8; replace it instead of failing the whole reply.
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

} // namespace

std::string workerVersion()
{
    return KFORGE_WORKER_VERSION;
}

Json readyEvent()
{
    Json j;
    j["event"] = "ready";
    j["protocol"] = protocol::kVersion;
    j["worker_version"] = workerVersion();
    j["abi_version"] = KF_ABI_VERSION;
    j["pid"] = static_cast<long long>(::getpid());
    return j;
}

WorkerServer::WorkerServer(ProtocolChannel &channel, int device)
    : m_channel(channel)
    , m_gpu(device)
{
    m_torchPython = defaultTorchPython();
}

WorkerServer::Loaded::~Loaded()
{
    host.reset(); // the process first, then the judge's copy
    std::error_code ec;
    if (!file.empty())
        std::filesystem::remove(file, ec);
}

namespace {

std::filesystem::path workDir()
{
    return TempDir::path().empty() ? std::filesystem::temp_directory_path() : TempDir::path();
}

// kforge-noop.so beside this executable (build tree), or where `install` puts it: <prefix>/<libdir>/kforge
// (lib/x86_64-linux-gnu/kforge in the Debian package), or <prefix>/lib/kforge.
std::filesystem::path noopLibrary()
{
    const std::filesystem::path exe = selfExecutable();
    const std::filesystem::path prefix = exe.parent_path().parent_path();
    for (const std::filesystem::path &p : {exe.parent_path() / "kforge-noop.so",
                                           prefix / KFORGE_INSTALL_LIBDIR / "kforge" / "kforge-noop.so",
                                           prefix / "lib" / "kforge" / "kforge-noop.so"}) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(p, ec))
            return p;
    }
    return {};
}

bool isElf(const std::string &bytes)
{
    return bytes.size() >= 4
           && bytes.compare(0, 4,
                            "\x7f"
                            "ELF")
                  == 0;
}

} // namespace

host::HostStart WorkerServer::hostStart(const std::string &slot) const
{
    host::HostStart how;
    how.executable = selfExecutable();
    how.device = m_gpu.index();
    how.slot = slot;
    how.tempParent = workDir();
    return how;
}

void WorkerServer::bootSpares(std::size_t upTo)
{
    while (m_sparesOn && m_spare.size() < upTo) {
        std::string error;
        auto spare = host::HostClient::spawnSpare(hostStart("spare"), error);
        if (!spare)
            return; // the next start spawns its own
        m_spare.push_back(std::move(spare));
    }
}

bool WorkerServer::startHost(Loaded &loaded, std::string &code, std::string &message)
{
    host::HostStart how = loaded.module ? moduleStart(loaded) : hostStart(loaded.slot);
    how.library = loaded.bytes;
    std::deque<std::unique_ptr<host::HostClient>> &spares = loaded.module ? m_moduleSpare : m_spare;
    std::unique_ptr<host::HostClient> spare;
    if (!spares.empty()) {
        spare = std::move(spares.front());
        spares.pop_front();
    }
    // A spare that booted without a device while the worker has one (a context it could not make then, e.g.
    // while a kernel held all device memory) would refuse the batches: a fresh host instead.
    if (spare && spare->settle(host::kInitTimeoutS) && spare->bootedWithoutDevice() && m_gpu.ensure())
        spare.reset();
    std::size_t freeBytes = 0, totalBytes = 0;
    if (loaded.slot == "candidate" && m_gpu.ensure() && cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess)
        loaded.freeBeforeStart = freeBytes;
    loaded.host = host::HostClient::start(how, code, message, std::move(spare));
    if (loaded.module)
        bootModuleSpares(1);
    else
        bootSpares(1);
    return loaded.host != nullptr;
}

void WorkerServer::ensureHost(Loaded &loaded)
{
    // A host that started without a device while this worker has one (its context could not be made then, e.g.
    // while a candidate held all device memory: a6_hog_at_load's follow-up on the H100) would refuse the batches.
    const bool deviceless = loaded.host && !loaded.host->initReply().value("device", true) && m_gpu.ensure();
    if (loaded.host && loaded.host->alive() && !deviceless)
        return;
    loaded.host.reset();
    loaded.initialState.clear();
    std::string code, message;
    if (!startHost(loaded, code, message))
        throw ProtocolError{protocol::kInternal, "restarting the " + loaded.slot + "'s process failed: " + message};
}

void WorkerServer::send(const Json &message)
{
    // Every line for a request carries its token, so the client can tell it from a line a kernel forges.
    Json line = message;
    if (!m_currentToken.is_null())
        line["token"] = m_currentToken;
    m_channel.writeLine(dump(line));
}

int WorkerServer::run()
{
    RequestReader requests(m_channel);
    requests.start();
    bootSpares(kSpares);
    send(readyEvent());
    while (!m_exit) {
        const std::optional<std::string> line = requests.next();
        if (!line)
            break;
        if (line->find_first_not_of(" \t\r") == std::string::npos)
            continue;
        send(handleLine(*line));
    }
    // Every host's whole tree goes before the worker does (main ends with std::exit, which runs no
    // destructors of locals): a candidate's descendants must not outlive the worker.
    m_candidate.reset();
    m_reference.reset();
    m_keptReferences.clear();
    m_baseline.reset();
    m_moduleBaseline.reset();
    m_spare.clear();
    m_moduleSpare.clear();
    return m_exitStatus;
}

Json WorkerServer::handleLine(const std::string &line)
{
    m_currentToken = nullptr;
    Json request;
    try {
        request = Json::parse(line);
    } catch (const nlohmann::json::parse_error &e) {
        Json r;
        r["id"] = nullptr;
        r["ok"] = false;
        r["error"] = {{"code", protocol::kBadRequest}, {"message", std::string("malformed JSON: ") + e.what()}};
        return r;
    }
    return handle(request);
}

Json WorkerServer::handle(const Json &request)
{
    Json response;
    m_currentId = request.is_object() && request.contains("id") ? request["id"] : Json(nullptr);
    response["id"] = m_currentId;
    if (request.is_object() && request.contains("token") && request["token"].is_string())
        m_currentToken = request["token"];
    try {
        if (!request.is_object())
            throw ProtocolError{protocol::kBadRequest, "a request is a JSON object"};
        const auto op = request.find("op");
        if (op == request.end() || !op->is_string())
            throw ProtocolError{protocol::kBadRequest, "missing \"op\" (a string)"};
        const std::string name = op->get<std::string>();
        pumpPrebuilds(); // builds ahead that ended since the last request, and the next ones started
        Json body;
        if (name == "hello")
            body = opHello(request);
        else if (name == "device_info")
            body = opDeviceInfo();
        else if (name == "load")
            body = opLoad(request);
        else if (name == "evaluate")
            body = opEvaluate(request);
        else if (name == "self_test")
            body = opSelfTest(request);
        else if (name == "disassemble")
            body = opDisassemble(request);
        else if (name == "prebuild")
            body = opPrebuild(request);
        else if (name == "shutdown") {
            m_exit = true;
            m_exitStatus = 0;
            body = Json::object();
        } else
            throw ProtocolError{protocol::kBadRequest,
                                "unknown op '" + name
                                    + "' (known: hello, device_info, load, evaluate, prebuild, disassemble, self_test, shutdown)"};
        response["ok"] = true;
        for (auto &[k, v] : body.items())
            response[k] = v;
    } catch (const ProtocolError &e) {
        response["ok"] = false;
        response["error"] = {{"code", e.code}, {"message", e.message}};
    } catch (const CudaFailure &f) {
        // A CUDA call of the worker itself (device_info's measurements, ...), not of a kernel.
        const bool broken = m_gpu.isBroken(f.code);
        response["ok"] = false;
        response["error"] = {{"code", protocol::kInternal},
                             {"message", cudaErrorText(f.code) + " at " + f.where},
                             {"restart_required", broken}};
        if (broken) {
            m_exit = true;
            m_exitStatus = protocol::kExitRestartRequired;
        }
    } catch (const std::exception &e) {
        response["ok"] = false;
        response["error"] = {{"code", protocol::kInternal}, {"message", e.what()}};
    }
    return response;
}

Json WorkerServer::opHello(const Json &request)
{
    const auto p = request.find("protocol");
    if (p == request.end() || !p->is_number_integer())
        throw ProtocolError{protocol::kBadRequest, "hello needs \"protocol\" (an integer)"};
    if (p->get<long long>() != protocol::kVersion)
        throw ProtocolError{protocol::kProtocolMismatch,
                            "the client speaks protocol " + std::to_string(p->get<long long>()) + ", this worker ("
                                + workerVersion() + ") speaks " + std::to_string(protocol::kVersion)};
    Json r;
    r["protocol"] = protocol::kVersion;
    r["worker_version"] = workerVersion();
    r["abi_version"] = KF_ABI_VERSION;
    r["pid"] = static_cast<long long>(::getpid());
    r["device_index"] = m_gpu.index();
    return r;
}

void WorkerServer::requireDevice()
{
    if (!m_gpu.ensure())
        throw ProtocolError{protocol::kNoDevice, m_gpu.error()};
}

Json WorkerServer::opDeviceInfo()
{
    requireDevice();
    if (m_torchProbe.is_null())
        m_torchProbe = torchProbe();
    return Json{{"device", m_gpu.deviceInfo()}, {"torch", m_torchProbe}};
}

Json WorkerServer::opLoad(const Json &request)
{
    const auto slot = request.find("slot");
    if (slot == request.end() || !slot->is_string()
        || (slot->get<std::string>() != "reference" && slot->get<std::string>() != "candidate"))
        throw ProtocolError{protocol::kBadRequest, "load needs \"slot\": \"reference\" or \"candidate\""};
    const bool isReference = slot->get<std::string>() == "reference";
    std::unique_ptr<Loaded> &target = isReference ? m_reference : m_candidate;
    // A failed load must not leave the previous kernel in the slot. A reference's process is kept a while
    // (m_keptReferences); a candidate's goes.
    if (isReference && target && target->host && target->host->alive()) {
        m_keptReferences.push_front(std::move(target));
        while (m_keptReferences.size() > kKeptReferences)
            m_keptReferences.pop_back();
    }
    target.reset();

    std::string bytes;
    if (const auto path = request.find("path"); path != request.end()) {
        if (!path->is_string())
            throw ProtocolError{protocol::kBadRequest, "\"path\" must be a string"};
        std::ifstream in(path->get<std::string>(), std::ios::binary);
        if (!in)
            throw ProtocolError{protocol::kLoadFailed, "cannot read " + path->get<std::string>()};
        std::ostringstream s;
        s << in.rdbuf();
        bytes = s.str();
    } else if (const auto b64 = request.find("so_base64"); b64 != request.end()) {
        if (!b64->is_string() || !decodeBase64(b64->get<std::string>(), bytes))
            throw ProtocolError{protocol::kBadRequest, "\"so_base64\" is not valid base64"};
    } else if (const auto src = request.find("source_base64"); src != request.end()) {
        if (!src->is_string() || !decodeBase64(src->get<std::string>(), bytes))
            throw ProtocolError{protocol::kBadRequest, "\"source_base64\" is not valid base64"};
    } else {
        throw ProtocolError{protocol::kBadRequest, "load needs \"path\", \"so_base64\" or \"source_base64\""};
    }
    // A Python module (a torch task's Model or ModelNew): a path ending in .py, or a source with its file name.
    std::string moduleName;
    if (const auto src = request.find("source_base64"); src != request.end()) {
        const auto name = request.find("filename");
        moduleName = name != request.end() && name->is_string() ? name->get<std::string>() : std::string();
        if (!moduleName.ends_with(".py"))
            throw ProtocolError{protocol::kBadRequest, "\"source_base64\" is a Python module's source, with "
                                                       "\"filename\" ending in .py (a kernel comes compiled, as "
                                                       "\"so_base64\" or \"path\")"};
    } else if (const auto path = request.find("path"); path != request.end() && path->get<std::string>().ends_with(".py")) {
        moduleName = path->get<std::string>();
    }
    if (isReference)
        for (auto it = m_keptReferences.begin(); it != m_keptReferences.end(); ++it) {
            if ((*it)->bytes != bytes)
                continue;
            std::unique_ptr<Loaded> kept = std::move(*it);
            m_keptReferences.erase(it);
            if (!kept->host || !kept->host->alive())
                break; // ended meanwhile: loaded afresh below
            target = std::move(kept);
            return Json{{"abi_version", target->host->abi()}, {"start_ms", Json::object()}, {"kept", true}};
        }
    auto loaded = std::make_unique<Loaded>();
    loaded->slot = slot->get<std::string>();
    loaded->bytes = std::move(bytes);
    loaded->key = std::to_string(loaded->bytes.size()) + ":" + std::to_string(std::hash<std::string>{}(loaded->bytes));
    loaded->module = !moduleName.empty();
    if (loaded->module) {
        // A Python module: its host starts at the evaluation, which names the task (its init arguments, mode).
        if (isElf(loaded->bytes))
            throw ProtocolError{protocol::kLoadFailed, moduleName + " is a shared object, not a Python module"};
        loaded->fileName = std::filesystem::path(moduleName).filename().string();
        if (loaded->fileName.size() <= 3)
            loaded->fileName = loaded->slot + ".py";
        target = std::move(loaded);
        // A torch session: module spares boot now (the interpreter, torch and a context, ~3 s on the H100),
        // while the client sends the rest.
        m_torchServed = true;
        bootModuleSpares(kSpares);
        return Json{{"module", true}, {"start_ms", Json::object()}};
    }
    loaded->file = workDir() / (loaded->slot + "-" + std::to_string(++m_loads) + ".so");
    {
        std::ofstream out(loaded->file, std::ios::binary | std::ios::trunc);
        out.write(loaded->bytes.data(), static_cast<std::streamsize>(loaded->bytes.size()));
        if (!out)
            throw ProtocolError{protocol::kInternal, "cannot write " + loaded->file.string()};
    }
    // The library is loaded (and its ABI checked) by its own process, never by the judge.
    std::string code, message;
    if (!startHost(*loaded, code, message))
        throw ProtocolError{code == "crashed" || code == "timeout" ? std::string(protocol::kLoadFailed) : code, message};
    const int abi = loaded->host->abi();
    Json startMs = Json::object();
    for (const auto &[k, v] : loaded->host->startMs().items())
        startMs[k] = std::round(v.get<double>() * 10) / 10;
    target = std::move(loaded);
    return Json{{"abi_version", abi}, {"start_ms", startMs}};
}

// The hosts an evaluation judges (the loaded reference and candidate, the baseline of the task's kind) and what
// the judge may ask of the server: fresh and wrapped hosts, quiet and timed spares (judge.h, Judge::Hosts).
Judge::Hosts WorkerServer::judgeHosts(bool torch)
{
    host::HostClient *baseline = torch && m_candidate->module ? m_moduleBaseline->host.get() : m_baseline->host.get();
    Judge::Hosts hosts{.reference = m_reference->host.get(), .candidate = m_candidate->host.get(), .baseline = baseline,
                           .freeBeforeCandidate = m_candidate->freeBeforeStart};
    hosts.referenceState = torch ? &m_reference->initialState : nullptr;
    hosts.fresh = [this](bool reference) -> std::unique_ptr<host::HostClient> {
        const Loaded &of = *(reference ? m_reference : m_candidate);
        Loaded copy;
        copy.slot = reference ? "reference" : "candidate";
        copy.bytes = of.bytes;
        copy.module = of.module;
        copy.fileName = of.fileName;
        copy.init = of.init;
        copy.initTimeoutS = of.initTimeoutS;
        std::string code, message;
        try {
            return startHost(copy, code, message) ? std::move(copy.host) : nullptr;
        } catch (const ProtocolError &) {
            return nullptr;
        }
    };
    hosts.quiet = [this] {
        for (auto *spares : {&m_spare, &m_moduleSpare})
            for (auto it = spares->begin(); it != spares->end();)
                it = (*it)->settle(host::kInitTimeoutS) ? it + 1 : spares->erase(it); // failed: dropped
    };
    hosts.timed = [this] {
        bootSpares(kSpares);
        bootModuleSpares(kSpares);
    };
    hosts.wrapped = [this](const std::vector<std::string> &wrapper, std::string &error) -> std::unique_ptr<host::HostClient> {
        host::HostStart how;
        try {
            how = m_candidate->module ? moduleStart(*m_candidate) : hostStart("candidate");
        } catch (const ProtocolError &e) {
            error = e.message;
            return nullptr;
        }
        how.library = m_candidate->bytes;
        how.wrapper = wrapper;
        how.initTimeoutS = 180; // the tool's own start and instrumentation
        std::string code;
        return host::HostClient::start(how, code, error);
    };
    return hosts;
}

Json WorkerServer::opEvaluate(const Json &request)
{
    const auto taskJson = request.find("task");
    if (taskJson == request.end() || !taskJson->is_object())
        throw ProtocolError{protocol::kBadRequest, "evaluate needs \"task\" (the task.json object)"};
    const TaskSpecResult task = parseTaskSpec(*taskJson, "task");
    if (!task.ok())
        throw ProtocolError{protocol::kBadRequest, task.error.message()};
    EvalOptions options;
    std::string error;
    if (!EvalOptions::fromJson(request.contains("options") ? request["options"] : Json(nullptr), options, error))
        throw ProtocolError{protocol::kBadRequest, error};
    // What was loaded must fit the task's kind (checked without a GPU).
    const bool torch = task.spec->kind == TaskKind::Torch;
    if (torch && m_reference && !m_reference->module)
        throw ProtocolError{protocol::kBadRequest, "a PyTorch task's reference is its module (the task's "
                                                       + task.spec->reference + "), not a kernel library"};
    for (const Loaded *l : {m_reference.get(), m_candidate.get()})
        if (!torch && l && l->module)
            throw ProtocolError{protocol::kBadRequest, "the " + l->slot + " is a Python module (" + l->fileName
                                                           + "), and a CUDA task's kernels are libraries (kf_entry)"};
    requireDevice();
    if (!m_reference || !m_candidate)
        throw ProtocolError{protocol::kBadRequest, !m_reference ? "no reference loaded (op load, slot reference)"
                                                                : "no candidate loaded (op load, slot candidate)"};

    const auto hostsStart = std::chrono::steady_clock::now();
    bool candidateStarted = false;
    if (torch) {
        // The module hosts' init: the import, builds the module starts (load_inline: 30-90 s for a CUDA
        // extension the first time, kept in the judge's cache after), the construction. The task's timeout_s
        // is the evaluation's, which starts once the hosts are up (the client's watchdog restarts at the
        // evaluation's first progress event, "verifying").
        const double initS = std::max(kModuleInitS, 0.8 * (task.spec->timeoutS > 0 ? task.spec->timeoutS : 60));
        m_torchServed = true;
        ensureModuleHost(*m_reference, moduleInit(*task.spec, true, nullptr), initS);
        candidateStarted = m_candidate->module && !(m_candidate->host && m_candidate->host->alive());
        if (m_candidate->module)
            ensureModuleHost(*m_candidate,
                             moduleInit(*task.spec, false, m_reference->host->initReply().value("init_args", Json::array())),
                             initS);
        else
            ensureHost(*m_candidate);
        if (m_candidate->module)
            ensureModuleBaseline(*task.spec, initS);
    } else {
        ensureHost(*m_reference);
        ensureHost(*m_candidate);
    }
    if (!m_baseline) {
        const std::filesystem::path noop = noopLibrary();
        std::ifstream in(noop, std::ios::binary);
        if (noop.empty() || !in)
            throw ProtocolError{protocol::kInternal, "the timing baseline's library kforge-noop.so is not beside "
                                                         + selfExecutable() + " (nor in ../" KFORGE_INSTALL_LIBDIR "/kforge or ../lib/kforge)"};
        std::ostringstream bytes;
        bytes << in.rdbuf();
        m_baseline = std::make_unique<Loaded>();
        m_baseline->slot = "baseline";
        m_baseline->bytes = bytes.str();
    }
    ensureHost(*m_baseline);
    // Hosts a previous evaluation's profile passes ended start again here: their time is this evaluation's.
    const double hostsS = std::chrono::duration<double>(std::chrono::steady_clock::now() - hostsStart).count();

    Judge evaluator(m_gpu, m_referenceProfiles);
    evaluator.setReferenceKey(m_reference->key);
    evaluator.setDeviceWarm(m_lastEvaluationEnd.time_since_epoch().count() != 0
                            && std::chrono::duration<double>(std::chrono::steady_clock::now() - m_lastEvaluationEnd).count()
                                   < Judge::kWarmDeviceS);
    const Json id = m_currentId;
    const Judge::Hosts hosts = judgeHosts(torch);
    const auto progress = [this, &id](const char *stage) {
        send(Json{{"id", id}, {"event", "progress"}, {"stage", stage}});
    };
    // The verdict and the timing before the passes (docs/worker-protocol.md, "measured"): the client shows them
    // at once; the response stays the only result.
    const auto measured = [this, &id, hostsS](const Json &provisional) {
        Json early = provisional;
        if (early.contains("elapsed_ms"))
            early["elapsed_ms"] = early["elapsed_ms"].get<double>() + std::round(hostsS * 1000);
        send(Json{{"id", id}, {"event", "measured"}, {"result", std::move(early)}});
    };
    Json result = evaluator.evaluate(*task.spec, options, hosts, progress, measured);
    if (result.contains("phases_s") && result["phases_s"].is_object())
        result["phases_s"]["hosts"] = std::round(hostsS * 1000) / 1000;
    if (candidateStarted && m_candidate->host) { // a module host started by this evaluation: where its start went
        Json startMs = Json::object();
        for (const auto &[k, v] : m_candidate->host->startMs().items())
            startMs[k] = std::round(v.get<double>() * 10) / 10;
        result["candidate_start_ms"] = startMs;
    }
    if (result.contains("timing"))
        m_lastEvaluationEnd = std::chrono::steady_clock::now();
    if (evaluator.restartRequired()) {
        m_exit = true;
        m_exitStatus = protocol::kExitRestartRequired;
    }
    return Json{{"result", std::move(result)}};
}

Json WorkerServer::opDisassemble(const Json &request)
{
    // Needs no GPU: the toolkit's cuobjdump and nvdisasm read the library's cubins.
    std::filesystem::path library;
    std::filesystem::path scratch;
    const std::filesystem::path work = TempDir::path().empty() ? std::filesystem::temp_directory_path() : TempDir::path();
    if (const auto path = request.find("path"); path != request.end()) {
        if (!path->is_string())
            throw ProtocolError{protocol::kBadRequest, "\"path\" must be a string"};
        library = path->get<std::string>();
        std::error_code ec;
        if (!std::filesystem::is_regular_file(library, ec))
            throw ProtocolError{protocol::kLoadFailed, "cannot read " + library.string()};
    } else if (const auto b64 = request.find("so_base64"); b64 != request.end()) {
        std::string bytes;
        if (!b64->is_string() || !decodeBase64(b64->get<std::string>(), bytes))
            throw ProtocolError{protocol::kBadRequest, "\"so_base64\" is not valid base64"};
        scratch = work / ("disassemble-" + std::to_string(++m_loads) + ".so");
        std::ofstream out(scratch, std::ios::binary);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out)
            throw ProtocolError{protocol::kInternal, "cannot write " + scratch.string()};
        library = scratch;
    } else {
        const auto slot = request.find("slot");
        if (slot == request.end() || !slot->is_string()
            || (slot->get<std::string>() != "reference" && slot->get<std::string>() != "candidate"))
            throw ProtocolError{protocol::kBadRequest,
                                "disassemble needs \"slot\": \"reference\" or \"candidate\", or \"path\" or \"so_base64\""};
        const std::unique_ptr<Loaded> &loaded = slot->get<std::string>() == "reference" ? m_reference : m_candidate;
        if (!loaded)
            throw ProtocolError{protocol::kBadRequest, "no " + slot->get<std::string>() + " loaded (op load, slot "
                                                           + slot->get<std::string>() + ")"};
        if (loaded->module)
            throw ProtocolError{protocol::kBadRequest, "the " + slot->get<std::string>() + " is a Python module ("
                                                           + loaded->fileName
                                                           + "): it has no machine code of its own "
                                                             "to disassemble"};
        library = loaded->file;
    }
    const auto cleanup = [&scratch] {
        std::error_code ec;
        if (!scratch.empty())
            std::filesystem::remove(scratch, ec);
    };
    try {
        Json body = Disassembler().disassemble(library, work);
        cleanup();
        return body;
    } catch (const DisassemblyError &e) {
        cleanup();
        throw ProtocolError{e.code, e.message};
    }
}

Json WorkerServer::opSelfTest(const Json &request)
{
    requireDevice();
    SelfTestConfig config;
    if (const auto dir = request.find("tasks_dir"); dir != request.end() && !dir->is_null()) {
        if (!dir->is_string())
            throw ProtocolError{protocol::kBadRequest, "\"tasks_dir\" must be a string"};
        config.tasksDir = dir->get<std::string>();
    }
    if (request.contains("options")) {
        std::string error;
        if (!EvalOptions::fromJson(request["options"], config.options, error))
            throw ProtocolError{protocol::kBadRequest, error};
    }
    config.workerArgv = m_selfTestWorker.empty()
                            ? std::vector<std::string>{"/proc/self/exe", "--device", std::to_string(m_gpu.index())}
                            : m_selfTestWorker;
    const Json id = m_currentId;
    config.log = [this, &id](const std::string &line) {
        send(Json{{"id", id}, {"event", "progress"}, {"stage", "self_test"}, {"detail", line}});
    };
    const SelfTestReport report = runSelfTest(config);
    if (!report.error.empty())
        throw ProtocolError{report.noDevice ? protocol::kNoDevice : protocol::kInternal, report.error};
    Json rows = Json::array();
    for (const SelfTestRow &r : report.rows)
        rows.push_back(toJson(r));
    return Json{{"rows", rows}, {"passed", report.passed}};
}

} // namespace kforge::runtime
