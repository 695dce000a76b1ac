#include "core/runtime/host/candidatehost.h"

#include "core/runtime/host/hostkernels.h"
#include "core/runtime/host/hostprotocol.h"
#include "core/runtime/host/sandbox.h"
#include "core/runtime/task/taskspec.h"
#include "core/runtime/worker/kernellibrary.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <unistd.h>

namespace kforge::runtime::host {
namespace {

using Json = nlohmann::ordered_json;

// A request the host refuses: {"ok": false, "code": ..., "message": ...}.
struct Refusal {
    std::string code;
    std::string message;
};

std::string cudaName(cudaError_t e)
{
    return cudaGetErrorName(e);
}

bool isMemoryError(cudaError_t e)
{
    return e == cudaErrorMemoryAllocation;
}

void check(cudaError_t e, const std::string &what)
{
    if (e != cudaSuccess)
        throw Refusal{isMemoryError(e) ? "out_of_memory" : "cuda_error",
                      what + ": " + cudaName(e) + " (" + cudaGetErrorString(e) + ")"};
}

class Channel
{
public:
    explicit Channel(int fd)
        : m_fd(fd)
    {
    }
    std::optional<std::string> readLine()
    {
        for (;;) {
            const std::size_t nl = m_buffer.find('\n');
            if (nl != std::string::npos) {
                std::string line = m_buffer.substr(0, nl);
                m_buffer.erase(0, nl + 1);
                return line;
            }
            char chunk[65536];
            const ssize_t n = ::read(m_fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return std::nullopt;
            m_buffer.append(chunk, static_cast<std::size_t>(n));
        }
    }
    bool writeLine(const Json &j)
    {
        std::string s = j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
        std::size_t done = 0;
        while (done < s.size()) {
            const ssize_t n = ::write(m_fd, s.data() + done, s.size() - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return false;
            done += static_cast<std::size_t>(n);
        }
        return true;
    }

private:
    int m_fd;
    std::string m_buffer;
};

class Host
{
public:
    Host(int device, HostProfiler *profiler)
        : m_device(device)
        , m_profiler(profiler)
    {
    }
    ~Host() { unmap(); }

    Json handle(const Json &request, bool &exit);

private:
    Json opBoot();
    Json opInit(const Json &request);
    Json opMap(const Json &request);
    Json opBatch(const Json &request);
    Json opFinish();
    Json opProfile(const Json &request);
    void unmap();
    void requireInit() const
    {
        if (!m_library)
            throw Refusal{"bad_request", "no library loaded (op init)"};
    }
    // The descriptors of one call: the task's tensors at the call's buffers and offsets.
    struct Descriptors {
        std::vector<kf_tensor> inputs, outputs;
    };
    Descriptors descriptorsOf(const CallSpec &call) const;
    void *address(const TensorRef &ref, std::size_t bytes) const;
    int invoke(Descriptors &d);

    int m_device;
    HostProfiler *m_profiler;
    bool m_reference = false;
    bool m_booted = false;
    bool m_hasDevice = false;
    double m_bootMs = 0;
    cudaStream_t m_stream = nullptr;
    std::unique_ptr<KernelLibrary> m_library;
    std::optional<TaskSpec> m_task;
    std::vector<kf_param_value> m_params;
    std::vector<TensorSpec> m_inputs; // what kf_entry gets as inputs (a torch task's: with its state)
    struct Buffer {
        void *ptr = nullptr;
        uint64_t bytes = 0;
    };
    std::map<int, Buffer> m_buffers;
    std::map<int, cudaEvent_t> m_events;
    std::vector<int> m_rc; // of the calls since the last finish
    // A "private" batch's own allocations (one cudaMalloc per tensor, freed at finish): under compute-sanitizer
    // memcheck an access past a tensor's end leaves its allocation instead of landing in the next tensor of
    // the judge's arena.
    std::vector<void *> m_private;
    void privatize(Descriptors &d, std::vector<std::pair<void *, const kf_tensor *>> &copyBack);
    void *m_flush = nullptr;
    std::size_t m_flushBytes = 0;
};

Json Host::handle(const Json &request, bool &exit)
{
    const std::string op = request.at("op").get<std::string>();
    if (op == kOpBoot)
        return opBoot();
    if (op == kOpInit)
        return opInit(request);
    if (op == kOpMap)
        return opMap(request);
    if (op == kOpBatch)
        return opBatch(request);
    if (op == kOpFinish)
        return opFinish();
    if (op == kOpProfile)
        return opProfile(request);
    if (op == kOpExit) {
        exit = true;
        return Json{{"ok", true}};
    }
    throw Refusal{"bad_request", "unknown op '" + op + "'"};
}

Json Host::opBoot()
{
    if (m_booted)
        throw Refusal{"bad_request", "boot twice"};
    const auto t0 = std::chrono::steady_clock::now();
    // Without a device the library is still loaded and checked (a load needs no GPU); map then refuses.
    m_hasDevice = cudaSetDevice(m_device) == cudaSuccess && cudaFree(nullptr) == cudaSuccess
                  && cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking) == cudaSuccess;
    if (!m_hasDevice)
        cudaGetLastError();
    m_booted = true;
    m_bootMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return Json{{"ok", true}, {"device", m_hasDevice}, {"context_ms", m_bootMs}};
}

Json Host::opInit(const Json &request)
{
    if (m_library)
        throw Refusal{"bad_request", "init twice"};
    m_reference = request.value("slot", std::string("candidate")) == "reference";
    if (!m_booted)
        (void)opBoot();
    const auto msSince = [](std::chrono::steady_clock::time_point t) {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
    };
    auto t = std::chrono::steady_clock::now();
    // After the context exists (the driver opens /dev/nvidia* and reads /proc, /sys): Landlock, then seccomp.
    const Protections applied = applyHostRestrictions(
        HostRestrictions::fromJson(request.value("restrictions", Json::object())));
    const Json protections = applied.toJson();
    const double restrictMs = msSince(t);
    t = std::chrono::steady_clock::now();
    LoadFailure failure;
    m_library = KernelLibrary::open(request.at("library").get<std::string>(), failure);
    if (!m_library)
        throw Refusal{failure.code, failure.message};
    return Json{{"ok", true},
                {"abi", m_library->abiVersion()},
                {"device", m_hasDevice},
                {"protections", protections},
                {"init_ms", Json{{"context", m_bootMs}, {"restrictions", restrictMs}, {"library", msSince(t)}}}};
}

void Host::unmap()
{
    for (auto &[id, b] : m_buffers)
        cudaIpcCloseMemHandle(b.ptr);
    m_buffers.clear();
    for (auto &[id, e] : m_events)
        cudaEventDestroy(e);
    m_events.clear();
}

Json Host::opMap(const Json &request)
{
    requireInit();
    if (!m_hasDevice)
        throw Refusal{"no_device", "the host has no CUDA device"};
    check(cudaDeviceSynchronize(), "synchronizing before the new mapping");
    unmap();
    const TaskSpecResult task = parseTaskSpec(request.at("task"), "task");
    if (!task.ok())
        throw Refusal{"bad_request", task.error.message()};
    m_task = *task.spec;
    m_params.clear();
    for (const auto &[name, value] : m_task->params)
        m_params.push_back({name.c_str(), value});
    // A kernel of a torch task: the forward's tensors, then the module's parameters and buffers (named as in its
    // state dict, "linear.weight"), and the scalar forward arguments among the params (booleans as 0/1), as
    // the torch export's binding passes them.
    m_inputs = m_task->inputs;
    if (m_task->kind == TaskKind::Torch) {
        m_inputs.insert(m_inputs.end(), m_task->parameters.begin(), m_task->parameters.end());
        m_inputs.insert(m_inputs.end(), m_task->buffers.begin(), m_task->buffers.end());
        for (const ScalarArg &a : m_task->scalarArgs)
            if (a.value.is_number() || a.value.is_boolean())
                m_params.push_back({a.name.c_str(), a.value.is_boolean() ? (a.value.get<bool>() ? 1.0 : 0.0)
                                                                         : a.value.get<double>()});
    }
    for (const auto &b : request.at("buffers")) {
        cudaIpcMemHandle_t h;
        if (!fromHex(b.at("handle").get<std::string>(), &h, sizeof h))
            throw Refusal{"bad_request", "malformed memory handle"};
        Buffer buf;
        buf.bytes = b.at("bytes").get<uint64_t>();
        check(cudaIpcOpenMemHandle(&buf.ptr, h, cudaIpcMemLazyEnablePeerAccess), "cudaIpcOpenMemHandle");
        m_buffers[b.at("id").get<int>()] = buf;
    }
    for (const auto &e : request.at("events")) {
        cudaIpcEventHandle_t h;
        if (!fromHex(e.at("handle").get<std::string>(), &h, sizeof h))
            throw Refusal{"bad_request", "malformed event handle"};
        cudaEvent_t ev = nullptr;
        check(cudaIpcOpenEventHandle(&ev, h), "cudaIpcOpenEventHandle");
        m_events[e.at("id").get<int>()] = ev;
    }
    return Json{{"ok", true}, {"buffers", m_buffers.size()}, {"events", m_events.size()}};
}

void *Host::address(const TensorRef &ref, std::size_t bytes) const
{
    const auto it = m_buffers.find(ref.buffer);
    if (it == m_buffers.end() || ref.offset > it->second.bytes || bytes > it->second.bytes - ref.offset)
        throw Refusal{"bad_request", "a tensor outside its buffer"};
    return static_cast<char *>(it->second.ptr) + ref.offset;
}

Host::Descriptors Host::descriptorsOf(const CallSpec &call) const
{
    if (!m_task)
        throw Refusal{"bad_request", "no mapping (op map)"};
    Descriptors d;
    const auto build = [this](const std::vector<TensorSpec> &specs, const std::vector<TensorRef> &refs,
                              std::vector<kf_tensor> &out) {
        if (refs.size() != specs.size())
            throw Refusal{"bad_request", "a call names " + std::to_string(refs.size()) + " tensors, the task has "
                                             + std::to_string(specs.size())};
        for (std::size_t i = 0; i < specs.size(); ++i) {
            const TensorSpec &s = specs[i];
            kf_tensor t{};
            t.data = address(refs[i], s.sizeBytes());
            t.dtype = static_cast<kf_dtype>(s.dtype);
            t.ndim = static_cast<int32_t>(s.shape.size());
            int64_t stride = 1;
            for (int k = t.ndim - 1; k >= 0; --k) {
                t.shape[k] = s.shape[static_cast<std::size_t>(k)].value;
                t.strides[k] = stride;
                stride *= t.shape[k];
            }
            t.numel = s.numel();
            t.name = s.name.c_str();
            out.push_back(t);
        }
    };
    build(m_inputs, call.inputs, d.inputs);
    build(m_task->outputs, call.outputs, d.outputs);
    return d;
}

int Host::invoke(Descriptors &d)
{
    const kf_params params{m_params.data(), static_cast<int32_t>(m_params.size())};
    try {
        return m_library->entry()(d.inputs.data(), static_cast<int32_t>(d.inputs.size()), d.outputs.data(),
                                  static_cast<int32_t>(d.outputs.size()), &params, m_stream);
    } catch (...) {
        return -1; // a C++ exception out of kf_entry
    }
}

cudaEvent_t eventOf(const std::map<int, cudaEvent_t> &events, const Json &id)
{
    const auto it = events.find(id.get<int>());
    if (it == events.end())
        throw Refusal{"bad_request", "unknown event " + id.dump()};
    return it->second;
}

Json Host::opBatch(const Json &request)
{
    requireInit();
    const cudaEvent_t go = eventOf(m_events, request.at("go"));
    const cudaEvent_t done = eventOf(m_events, request.at("done"));
    std::vector<Descriptors> calls;
    for (const auto &c : request.at("calls"))
        calls.push_back(descriptorsOf(callFromJson(c)));
    check(cudaStreamWaitEvent(m_stream, go, 0), "cudaStreamWaitEvent(go)");
    const bool isPrivate = request.value("private", false);
    for (Descriptors &d : calls) {
        std::vector<std::pair<void *, const kf_tensor *>> copyBack; // judge's output, private descriptor
        if (isPrivate)
            privatize(d, copyBack);
        gpu::TouchList touch;
        const auto add = [&](const std::vector<kf_tensor> &ts, const std::vector<TensorSpec> &specs) {
            for (std::size_t i = 0; i < ts.size() && touch.count < gpu::TouchList::kMax; ++i) {
                touch.data[touch.count] = ts[i].data;
                touch.bytes[touch.count++] = specs[i].sizeBytes();
            }
        };
        add(d.inputs, m_inputs);
        add(d.outputs, m_task->outputs);
        check(gpu::touch(touch, m_stream), "the TLB touch before a call");
        m_rc.push_back(invoke(d));
        for (const auto &[to, t] : copyBack)
            check(cudaMemcpyAsync(to, t->data, m_task->outputs[static_cast<std::size_t>(t - d.outputs.data())].sizeBytes(),
                                  cudaMemcpyDeviceToDevice, m_stream),
                  "copying a private output back");
    }
    // Recorded whatever the calls did, so the judge's stream is never left waiting for it.
    check(cudaEventRecord(done, m_stream), "cudaEventRecord(done)");
    return Json{{"ok", true}, {"enqueued", calls.size()}};
}

void Host::privatize(Descriptors &d, std::vector<std::pair<void *, const kf_tensor *>> &copyBack)
{
    const auto own = [this](kf_tensor &t, std::size_t bytes) {
        void *p = nullptr;
        check(cudaMalloc(&p, std::max<std::size_t>(bytes, 1)), "allocating a private tensor");
        m_private.push_back(p);
        // The judge's contents (inputs; the outputs' poison), so the call sees what it would have seen.
        check(cudaMemcpyAsync(p, t.data, bytes, cudaMemcpyDeviceToDevice, m_stream), "copying into a private tensor");
        void *judge = t.data;
        t.data = p;
        return judge;
    };
    for (std::size_t i = 0; i < d.inputs.size(); ++i)
        own(d.inputs[i], m_inputs[i].sizeBytes());
    for (std::size_t i = 0; i < d.outputs.size(); ++i)
        copyBack.emplace_back(own(d.outputs[i], m_task->outputs[i].sizeBytes()), &d.outputs[i]);
}

Json Host::opFinish()
{
    requireInit();
    const cudaError_t e = cudaDeviceSynchronize();
    const cudaError_t last = e == cudaSuccess ? cudaGetLastError() : e;
    for (void *p : m_private)
        cudaFree(p);
    m_private.clear();
    std::fflush(stdout); // the judge reads the capped file after this answer
    std::fflush(stderr);
    Json r{{"ok", true}, {"rc", m_rc}, {"cuda_error", last == cudaSuccess ? Json(nullptr) : Json(cudaName(last))}};
    m_rc.clear();
    return r;
}

Json Host::opProfile(const Json &request)
{
    requireInit();
    if (!m_profiler)
        throw Refusal{"no_profiler", "this worker was built without the CUPTI profiler (kforge_profiler)"};
    auto d = std::make_shared<Descriptors>(descriptorsOf(callFromJson(request.at("call"))));
    if (!m_flush) {
        int l2 = 0;
        check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, m_device), "cudaDeviceGetAttribute");
        m_flushBytes = (2 * static_cast<std::size_t>(l2) + 15) / 16 * 16;
        check(cudaMalloc(&m_flush, m_flushBytes), "allocating the L2 flush buffer");
        check(cudaMemset(m_flush, 0, m_flushBytes), "clearing the L2 flush buffer");
    }
    HostRunner runner;
    runner.stream = m_stream;
    runner.device = m_device;
    runner.reference = m_reference;
    runner.library = m_library->path().string();
    runner.call = [this, d] { return invoke(*d); };
    runner.flushL2 = [this] { check(gpu::flush(m_flush, m_flushBytes, m_stream), "the L2 flush"); };
    runner.delay = [this] { check(gpu::delay(100000, m_stream), "the delay kernel"); };
    runner.marker = [this] { check(gpu::marker(m_stream), "the marker kernel"); };
    runner.launch = [this, d] {
        const int rc = invoke(*d);
        if (rc != 0)
            throw std::runtime_error("kf_entry returned " + std::to_string(rc));
        if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
            throw std::runtime_error(std::string("the kernel failed: ") + cudaGetErrorName(e) + " ("
                                     + cudaGetErrorString(e) + ")");
    };
    const std::string kind = request.at("kind").get<std::string>();
    Json body;
    try {
        if (kind == "trace")
            body = m_profiler->trace(runner, request.value("runs", 10));
        else if (kind == "metrics")
            body = m_profiler->metrics(runner, request);
        else if (kind == "source_profile")
            body = m_profiler->sourceProfile(runner, request);
        else
            throw Refusal{"bad_request", "unknown profile kind '" + kind + "'"};
    } catch (const std::runtime_error &e) {
        throw Refusal{"kernel_failed", e.what()};
    }
    body["ok"] = true;
    return body;
}

} // namespace

int runCandidateHost(int fd, int device, HostProfiler *profiler)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    Channel channel(fd);
    Host host(device, profiler);
    for (;;) {
        const std::optional<std::string> line = channel.readLine();
        if (!line)
            return kExitChannelGone;
        Json reply;
        bool exit = false;
        Json nonce;
        try {
            Json request = Json::parse(*line);
            if (request.is_object() && request.contains("nonce"))
                nonce = request["nonce"];
            reply = host.handle(request, exit);
        } catch (const Refusal &r) {
            reply = Json{{"ok", false}, {"code", r.code}, {"message", r.message}};
        } catch (const nlohmann::json::exception &e) {
            reply = Json{{"ok", false}, {"code", "bad_request"}, {"message", e.what()}};
        } catch (const std::exception &e) {
            reply = Json{{"ok", false}, {"code", "internal"}, {"message", e.what()}};
        }
        if (!nonce.is_null())
            reply["nonce"] = nonce; // the judge takes only the answer to the request it sent
        if (!channel.writeLine(reply))
            return kExitChannelGone;
        if (exit)
            return 0;
    }
}

} // namespace kforge::runtime::host
