#include "core/runtime/worker/batchtimer.h"

#include "core/runtime/host/hostkernels.h"
#include "core/runtime/host/hostprotocol.h"
#include "core/runtime/worker/devicekernels.h"
#include "core/runtime/worker/seeds.h"

#include <chrono>
#include <iterator>
#include <thread>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kAlign = 256;
// How long the gate holds the judge's stream for a host to enqueue its calls.
constexpr unsigned long long kGateTimeoutNs = 1000ull * 1000 * 1000;

std::size_t alignUp(std::size_t n)
{
    return (n + kAlign - 1) / kAlign * kAlign;
}

std::vector<std::size_t> layout(const std::vector<TensorSpec> &specs, std::size_t &stride)
{
    std::vector<std::size_t> offsets;
    stride = 0;
    for (const TensorSpec &s : specs) {
        offsets.push_back(stride);
        stride += alignUp(std::max<std::size_t>(s.sizeBytes(), 1));
    }
    stride = std::max<std::size_t>(stride, kAlign);
    return offsets;
}

std::string memHandle(void *ptr)
{
    cudaIpcMemHandle_t h;
    KF_CUDA(cudaIpcGetMemHandle(&h, ptr));
    return host::toHex(&h, sizeof h);
}

std::string eventHandle(cudaEvent_t e)
{
    cudaIpcEventHandle_t h;
    KF_CUDA(cudaIpcGetEventHandle(&h, e));
    return host::toHex(&h, sizeof h);
}

} // namespace

const char *sideName(Side s)
{
    switch (s) {
    case Side::Reference: return "reference";
    case Side::Candidate: return "candidate";
    case Side::Baseline: return "baseline";
    }
    return "?";
}

std::size_t BatchTimer::bytesPerSet(const TaskSpec &task, bool baselineOutputs)
{
    std::size_t in = 0, out = 0;
    layout(task.inputs, in);
    layout(task.outputs, out);
    return in + (baselineOutputs ? 4 : 3) * out;
}

BatchTimer::BatchTimer(GpuContext &gpu, const TaskSpec &task, int sets, bool baselineOutputs)
    : m_gpu(gpu)
    , m_task(task)
    , m_sets(sets)
    , m_baselineOutputs(baselineOutputs)
{
    m_inOffsets = layout(task.inputs, m_inStride);
    m_outOffsets = layout(task.outputs, m_outStride);
    const auto n = static_cast<std::size_t>(sets);
    m_arenas[0].buffer = DeviceBuffer(m_inStride * n);
    m_arenas[1].buffer = DeviceBuffer(m_outStride * n);
    m_arenas[2].buffer = DeviceBuffer(m_outStride * n);
    m_snapshot = DeviceBuffer(m_outStride * n);
    m_scratch = DeviceBuffer(m_inStride);
    m_counts = DeviceBuffer(sizeof(unsigned long long) * std::max<std::size_t>(task.inputs.size(), 1));
    if (baselineOutputs)
        m_arenas[3].buffer = DeviceBuffer(m_outStride * n);
    for (int i = 0; i < (baselineOutputs ? 4 : 3); ++i) {
        m_arenas[i].id = i;
        m_arenas[i].handle = memHandle(m_arenas[i].buffer.get());
        m_poison[i].assign(n, 0);
    }
    KF_CUDA(cudaEventCreateWithFlags(&m_go, cudaEventInterprocess | cudaEventDisableTiming));
    KF_CUDA(cudaEventCreateWithFlags(&m_done, cudaEventInterprocess | cudaEventDisableTiming));
    KF_CUDA(cudaEventCreate(&m_eg));
    KF_CUDA(cudaEventCreate(&m_e0));
    KF_CUDA(cudaEventCreate(&m_e1));
    m_goHandle = eventHandle(m_go);
    m_doneHandle = eventHandle(m_done);
    KF_CUDA(cudaHostAlloc(reinterpret_cast<void **>(&m_flag), 2 * sizeof(int), cudaHostAllocMapped));
    KF_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void **>(&m_deviceFlag), m_flag, 0));
    KF_CUDA(cudaHostAlloc(reinterpret_cast<void **>(&m_probe), 4 * sizeof(unsigned long long), cudaHostAllocMapped));
    KF_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void **>(&m_deviceProbe), m_probe, 0));
    KF_CUDA(cudaMallocHost(reinterpret_cast<void **>(&m_hostCounts), m_counts.bytes()));
}

bool BatchTimer::drain(double timeoutS)
{
    if (m_flag)
        *reinterpret_cast<volatile int *>(m_flag) = 1; // never leave a gate spinning
    const auto deadline = Clock::now()
                          + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeoutS));
    while (cudaStreamQuery(m_gpu.stream()) == cudaErrorNotReady) {
        if (Clock::now() > deadline) {
            m_stuck = true;
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

BatchTimer::~BatchTimer()
{
    if (!drain(5)) {
        // Freeing would wait for the stuck stream; the worker exits after this evaluation's reply.
        m_arenas[0].buffer.release();
        m_arenas[1].buffer.release();
        m_arenas[2].buffer.release();
        m_arenas[3].buffer.release();
        m_snapshot.release();
        m_scratch.release();
        m_counts.release();
        return;
    }
    for (cudaEvent_t e : {m_go, m_done, m_eg, m_e0, m_e1})
        if (e)
            cudaEventDestroy(e);
    if (m_flag)
        cudaFreeHost(m_flag);
    if (m_probe)
        cudaFreeHost(m_probe);
    if (m_hostCounts)
        cudaFreeHost(m_hostCounts);
}

Json BatchTimer::mapRequest(Side side, const Json &task) const
{
    const Arena &in = m_arenas[0];
    const Arena &out = m_arenas[outputArena(side)];
    return Json{{"op", host::kOpMap},
                {"task", task},
                {"buffers", Json::array({Json{{"id", in.id}, {"handle", in.handle}, {"bytes", in.buffer.bytes()}},
                                         Json{{"id", out.id}, {"handle", out.handle}, {"bytes", out.buffer.bytes()}}})},
                {"events",
                 Json::array({Json{{"id", 0}, {"handle", m_goHandle}}, Json{{"id", 1}, {"handle", m_doneHandle}}})}};
}

void *BatchTimer::input(int set, std::size_t tensor) const
{
    return static_cast<char *>(m_arenas[0].buffer.get()) + static_cast<std::size_t>(set) * m_inStride + m_inOffsets[tensor];
}

void *BatchTimer::output(Side side, int slot, std::size_t tensor) const
{
    return static_cast<char *>(m_arenas[outputArena(side)].buffer.get()) + static_cast<std::size_t>(slot) * m_outStride
           + m_outOffsets[tensor];
}

void *BatchTimer::snapshot(int slot, std::size_t tensor) const
{
    return static_cast<char *>(m_snapshot.get()) + static_cast<std::size_t>(slot) * m_outStride + m_outOffsets[tensor];
}

Json BatchTimer::callJson(Side side, int set) const
{
    host::CallSpec c;
    for (std::size_t i = 0; i < m_task.inputs.size(); ++i)
        c.inputs.push_back({0, static_cast<uint64_t>(set) * m_inStride + m_inOffsets[i]});
    for (const auto &[buffer, offset] : m_extraInputs[static_cast<int>(side)])
        c.inputs.push_back({buffer, offset});
    for (std::size_t i = 0; i < m_task.outputs.size(); ++i)
        c.outputs.push_back({outputArena(side), static_cast<uint64_t>(set) * m_outStride + m_outOffsets[i]});
    return host::toJson(c);
}

void BatchTimer::poison(Side side, int slots, uint64_t seed, int first)
{
    const int a = outputArena(side);
    for (int i = 0; i < slots && i < m_sets; ++i) {
        const int j = (first + i) % m_sets;
        const auto byte = static_cast<unsigned char>(deriveSeed(seed, static_cast<uint64_t>(j)) & 0xFF);
        m_poison[a][static_cast<std::size_t>(j)] = byte;
        KF_CUDA(cudaMemsetAsync(output(side, j, 0), byte, m_outStride, m_gpu.stream()));
    }
}

unsigned char BatchTimer::poisonOf(Side side, int slot) const
{
    return m_poison[outputArena(side)][static_cast<std::size_t>(slot)];
}

void BatchTimer::generateInto(void *base, uint64_t roundSeed, int set)
{
    const uint64_t seed = deriveSeed(roundSeed, static_cast<uint64_t>(set) + 1);
    for (std::size_t i = 0; i < m_task.inputs.size(); ++i) {
        const TensorSpec &s = m_task.inputs[i];
        // Declared: the task's distribution and no special values, the same data for a seed as always.
        const InitSpec init = rangedInit(s, m_range, m_scale);
        gpu::FillSpecials specials;
        for (double v : specialValues(s, m_range, m_scale))
            if (specials.count < static_cast<int>(std::size(specials.values)))
                specials.values[specials.count++] = v;
        KF_CUDA(gpu::fill(static_cast<char *>(base) + m_inOffsets[i], static_cast<int>(s.dtype), s.numel(),
                          static_cast<int>(init.kind), init.a, init.b, seed, static_cast<uint32_t>(i), m_gpu.stream(),
                          specials));
    }
}

void BatchTimer::generate(uint64_t roundSeed, int first, int last)
{
    for (int j = first; j < last && j < m_sets; ++j)
        generateInto(input(j, 0), roundSeed, j);
    KF_CUDA(cudaStreamSynchronize(m_gpu.stream()));
}

std::vector<unsigned long long> BatchTimer::inputChanges(uint64_t roundSeed, int set)
{
    const cudaStream_t s = m_gpu.stream();
    generateInto(m_scratch.get(), roundSeed, set);
    const std::size_t n = m_task.inputs.size();
    auto *counts = m_counts.as<unsigned long long>();
    KF_CUDA(cudaMemsetAsync(counts, 0, n * sizeof(unsigned long long), s));
    for (std::size_t i = 0; i < n; ++i)
        KF_CUDA(gpu::countDifferences(static_cast<char *>(m_scratch.get()) + m_inOffsets[i], input(set, i),
                                      m_task.inputs[i].sizeBytes(), counts + i, s));
    KF_CUDA(cudaMemcpyAsync(m_hostCounts, counts, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
    KF_CUDA(cudaStreamSynchronize(s));
    return std::vector<unsigned long long>(m_hostCounts, m_hostCounts + n);
}

void BatchTimer::waitEvent(cudaEvent_t e, double timeoutS, const std::string &what)
{
    const auto deadline = Clock::now()
                          + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeoutS));
    for (;;) {
        const cudaError_t r = cudaEventQuery(e);
        if (r == cudaSuccess)
            return;
        if (r != cudaErrorNotReady)
            throw CudaFailure{r, what};
        if (Clock::now() > deadline)
            throw host::HostFailure{"timeout", "the batch did not complete within "
                                                   + std::to_string(static_cast<int>(timeoutS + 0.5)) + " s in " + what};
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

BatchTime BatchTimer::run(host::HostClient &host, Side side, int calls, uint64_t roundSeed, bool gated, bool snapshot,
                          double timeoutS, const std::string &phase, int first, bool generate)
{
    const cudaStream_t s = m_gpu.stream();
    const int used = std::min(calls, m_sets);
    first = used == m_sets ? 0 : first % m_sets;
    const auto setOf = [&](int c) { return (first + c % used) % m_sets; };
    Json list = Json::array();
    for (int c = 0; c < calls; ++c)
        list.push_back(callJson(side, setOf(c)));
    const Json request{{"op", host::kOpBatch}, {"go", 0}, {"done", 1}, {"calls", list}};
    m_gpu.resetPersistingL2(); // lines a host marked persisting would survive the flush
    const bool probe = m_probeNs > 0 && side != Side::Candidate;
    double probeWallUs = -1;
    if (probe) { // before the host is asked to enqueue: its own waiting calls must not be what the probe sees
        KF_CUDA(cudaStreamSynchronize(s)); // the poison first: the probe's wall clock is its own
        std::fill(m_probe, m_probe + 4, 0ull);
        const auto p0 = Clock::now();
        KF_CUDA(host::gpu::quietProbe(m_probeNs, m_deviceProbe, s));
        KF_CUDA(cudaStreamSynchronize(s));
        probeWallUs = std::chrono::duration<double, std::micro>(Clock::now() - p0).count();
    } else {
        KF_CUDA(cudaStreamSynchronize(s)); // the poison and everything before it are outside the window
    }
    const auto t0 = Clock::now();
    auto *flag = reinterpret_cast<volatile int *>(m_flag);
    flag[0] = 0;
    flag[1] = 0;
    if (gated)
        KF_CUDA(host::gpu::gate(m_deviceFlag, m_deviceFlag + 1, kGateTimeoutNs, s));
    // The inputs are made after the gate opened, so no work on them can be queued before; the window starts
    // once they and the L2 flush are done (generation inside the window would put a cost as large as a
    // memory-bound call's into every batch, and its noise into the figure). Eg..E0 is timed too: contexts
    // of different processes do not run at once, so GPU time another process takes while the judge
    // prepares (a candidate working on the inputs before its calls) lengthens it against the baseline.
    KF_CUDA(cudaEventRecord(m_eg, s));
    for (int c = 0; generate && c < used; ++c)
        generateInto(input(setOf(c), 0), roundSeed, setOf(c));
    m_gpu.flushL2(s);
    KF_CUDA(cudaEventRecord(m_e0, s));
    KF_CUDA(cudaEventRecord(m_go, s));
    struct Release { // the gate is released on every way out
        volatile int *flag;
        ~Release() { flag[0] = 1; }
    } release{flag};
    const auto msSince = [](Clock::time_point from) {
        return std::chrono::duration<double, std::milli>(Clock::now() - from).count();
    };
    BatchTime t;
    t.enqueueWallMs = msSince(t0);
    auto step = Clock::now();
    const Json reply = host.request(request, timeoutS, phase);
    t.hostWallMs = msSince(step);
    if (!reply["ok"].get<bool>())
        throw host::HostFailure{"crashed", "the " + host.slot() + "'s process refused the batch in " + phase + ": "
                                               + reply.value("message", std::string())};
    KF_CUDA(cudaStreamWaitEvent(s, m_done, 0));
    KF_CUDA(cudaEventRecord(m_e1, s));
    if (snapshot) { // the slots used: [first, first + used), wrapping at most once
        const int head = std::min(used, m_sets - first);
        for (const auto &[from, n] : {std::pair{first, head}, std::pair{0, used - head}})
            if (n > 0)
                KF_CUDA(cudaMemcpyAsync(static_cast<char *>(m_snapshot.get()) + static_cast<std::size_t>(from) * m_outStride,
                                        output(side, from, 0), m_outStride * static_cast<std::size_t>(n),
                                        cudaMemcpyDeviceToDevice, s));
    }
    if (probe) // the side's calls are done by now; what the probe sees is another context's
        KF_CUDA(host::gpu::quietProbe(m_probeNs, m_deviceProbe + 2, s));
    flag[0] = 1;
    // The host synchronizes its own device first: a kernel that faulted there reports it instead of leaving
    // the judge waiting for a done event that never comes.
    step = Clock::now();
    t.finish = finish(host, timeoutS, phase);
    t.finishWallMs = msSince(step);
    if (!t.finish.cudaError.empty())
        return t;
    step = Clock::now();
    waitEvent(m_e1, timeoutS, phase);
    t.waitWallMs = msSince(step);
    float ms = 0;
    KF_CUDA(cudaEventElapsedTime(&ms, m_e0, m_e1));
    t.ms = ms;
    float prep = 0;
    KF_CUDA(cudaEventElapsedTime(&prep, m_eg, m_e0));
    t.prepMs = prep;
    t.gateTimedOut = gated && flag[1] != 0;
    t.wallMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    KF_CUDA(cudaStreamSynchronize(s));
    if (probe) {
        t.quietGapUs = static_cast<double>(std::max(m_probe[0], m_probe[2])) / 1000.0;
        // The wait before the probe could start: the GPU finishing another context's time slice first (a probe
        // shorter than a slice runs whole once it starts, so its own steps miss that wait: measured on the H100).
        t.quietWaitUs = std::max(0.0, probeWallUs - static_cast<double>(m_probe[1]) / 1000.0);
    }
    return t;
}

BatchTimer::Finish BatchTimer::expected(host::HostClient &host, uint64_t roundSeed, const std::vector<int> &sets,
                                        double timeoutS, const std::string &phase)
{
    return untimed(host, Side::Reference, roundSeed, sets, false, timeoutS, phase);
}

BatchTimer::Finish BatchTimer::untimed(host::HostClient &host, Side side, uint64_t roundSeed, const std::vector<int> &sets,
                                       bool privateBuffers, double timeoutS, const std::string &phase)
{
    const cudaStream_t s = m_gpu.stream();
    Json list = Json::array();
    for (int j : sets) {
        generateInto(input(j, 0), roundSeed, j);
        list.push_back(callJson(side, j));
    }
    KF_CUDA(cudaEventRecord(m_go, s));
    KF_CUDA(cudaStreamSynchronize(s));
    Json request{{"op", host::kOpBatch}, {"go", 0}, {"done", 1}, {"calls", list}};
    if (privateBuffers)
        request["private"] = true;
    const Json reply = host.request(request, timeoutS, phase);
    if (!reply["ok"].get<bool>())
        throw host::HostFailure{"crashed", "the " + host.slot() + "'s process refused the batch in " + phase + ": "
                                               + reply.value("message", std::string())};
    Finish f = finish(host, timeoutS, phase);
    if (!f.cudaError.empty())
        return f; // done may never come
    KF_CUDA(cudaStreamWaitEvent(s, m_done, 0));
    if (side == Side::Candidate)
        for (int j : sets)
            KF_CUDA(cudaMemcpyAsync(static_cast<char *>(m_snapshot.get()) + static_cast<std::size_t>(j) * m_outStride,
                                    output(side, j, 0), m_outStride, cudaMemcpyDeviceToDevice, s));
    KF_CUDA(cudaStreamSynchronize(s));
    return f;
}

BatchTimer::Finish BatchTimer::finish(host::HostClient &host, double timeoutS, const std::string &phase)
{
    const Json reply = host.request(Json{{"op", host::kOpFinish}}, timeoutS, phase);
    Finish f;
    if (!reply["ok"].get<bool>()) {
        f.cudaError = reply.value("message", std::string("finish refused"));
        return f;
    }
    for (const auto &rc : reply.value("rc", Json::array()))
        f.rc.push_back(rc.is_number_integer() ? rc.get<int>() : -1);
    if (reply.contains("cuda_error") && reply["cuda_error"].is_string())
        f.cudaError = reply["cuda_error"].get<std::string>();
    if (const Json errors = reply.value("errors", Json::array());
        errors.is_array() && !errors.empty() && errors[0].is_object()) {
        const Json &e = errors[0];
        f.outputMismatch = e.value("step", std::string()) == "output";
        f.error = "call " + std::to_string(e.value("call", -1) + 1) + ", step " + e.value("step", std::string("?"))
                  + ": " + e.value("message", std::string());
    }
    return f;
}

} // namespace kforge::runtime
