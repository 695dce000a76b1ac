#include "core/runtime/worker/evaluator.h"

#include "core/runtime/worker/devicekernels.h"
#include "core/runtime/worker/tensorset.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;

// kf_entry returned non-zero (or threw): the kernel reported a failure itself.
struct EntryFailure {
    Slot slot;
    int rc;
    std::string what;
};

struct OutputTotals {
    unsigned long long mismatches = 0, nans = 0, infs = 0;
    double maxAbs = 0, maxRel = 0;
};

// A value of type T from unaligned raw bytes.
template <typename T>
T load(const void *p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

double bitsToDouble(unsigned long long bits)
{
    return load<double>(&bits);
}

float halfToFloat(uint16_t h)
{
    const uint32_t sign = (h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1F;
    uint32_t mant = h & 0x3FFu;
    uint32_t bits;
    if (exp == 0x1F) {
        bits = sign | 0x7F800000u | (mant << 13);
    } else if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else { // subnormal: normalise
            exp = 127 - 15 + 1;
            while (!(mant & 0x400u)) {
                mant <<= 1;
                --exp;
            }
            bits = sign | (exp << 23) | ((mant & 0x3FFu) << 13);
        }
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    }
    return load<float>(&bits);
}

// One element, read back raw, as a double for the report.
double elementValue(const unsigned char *p, Dtype t)
{
    switch (t) {
    case Dtype::F32: return load<float>(p);
    case Dtype::F64: return load<double>(p);
    case Dtype::F16: return halfToFloat(load<uint16_t>(p));
    case Dtype::BF16: {
        const uint32_t bits = static_cast<uint32_t>(load<uint16_t>(p)) << 16;
        return load<float>(&bits);
    }
    case Dtype::I32: return load<int32_t>(p);
    case Dtype::I64: return static_cast<double>(load<int64_t>(p));
    case Dtype::U8: return *p;
    }
    return 0;
}

// NaN and infinities are not JSON numbers: they travel as strings.
Json number(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    return v;
}

std::string fmt(double v, int precision = 6)
{
    std::ostringstream s;
    s.precision(precision);
    s << v;
    return s.str();
}

std::string fmtMs(double ms)
{
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(ms < 0.1 ? 4 : 3);
    s << ms << " ms";
    return s.str();
}

Json statsJson(const RunStats &r, bool samples)
{
    Json j;
    j["median_ms"] = r.medianMs;
    j["mean_ms"] = r.meanMs;
    j["min_ms"] = r.minMs;
    j["p10_ms"] = r.p10Ms;
    j["p90_ms"] = r.p90Ms;
    j["cv"] = r.cv;
    j["runs"] = r.runs;
    if (samples)
        j["samples_ms"] = r.samplesMs;
    return j;
}

} // namespace

struct Evaluator::Verification {
    int trials = 0;
    int referenceCached = 0;
    std::vector<OutputTotals> totals;
    unsigned long long elements = 0; // compared per trial, all outputs
    Json firstMismatch = nullptr;
    std::string reason;
    std::vector<std::string> mutatedInputs;
    std::optional<bool> dependsOnInputs;
    bool sideStream = false;
    bool referenceMutates = false;
    bool failed = false;
};

struct Evaluator::TimingSetup {
    TimingSetup(const TaskSpec &task)
        : inputs(task.inputs)
        , refOut(task.outputs)
        , candOut(task.outputs)
    {
    }
    TensorSet inputs;
    TensorSet refOut;
    TensorSet candOut;
};

Evaluator::Evaluator(GpuContext &gpu, ReferenceCache &cache, StdoutCapture *capture)
    : m_gpu(gpu)
    , m_cache(cache)
    , m_capture(capture)
{
    KF_CUDA(cudaEventCreate(&m_start));
    KF_CUDA(cudaEventCreate(&m_stop));
}

Evaluator::~Evaluator()
{
    if (m_hostScratch)
        cudaFreeHost(m_hostScratch);
    if (m_start)
        cudaEventDestroy(m_start);
    if (m_stop)
        cudaEventDestroy(m_stop);
}

RunStats Evaluator::summarize(const std::vector<float> &samplesMs)
{
    RunStats r;
    r.samplesMs = samplesMs;
    r.runs = static_cast<int>(samplesMs.size());
    if (samplesMs.empty())
        return r;
    std::vector<double> s(samplesMs.begin(), samplesMs.end());
    std::sort(s.begin(), s.end());
    const auto quantile = [&](double q) {
        const double pos = q * static_cast<double>(s.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(pos));
        const std::size_t hi = std::min(lo + 1, s.size() - 1);
        return s[lo] + (s[hi] - s[lo]) * (pos - static_cast<double>(lo));
    };
    r.medianMs = quantile(0.5);
    r.p10Ms = quantile(0.1);
    r.p90Ms = quantile(0.9);
    r.minMs = s.front();
    double sum = 0;
    for (double v : s)
        sum += v;
    r.meanMs = sum / static_cast<double>(s.size());
    double var = 0;
    for (double v : s)
        var += (v - r.meanMs) * (v - r.meanMs);
    var = s.size() > 1 ? var / static_cast<double>(s.size() - 1) : 0;
    r.cv = r.meanMs > 0 ? std::sqrt(var) / r.meanMs : 0;
    return r;
}

void Evaluator::call(Slot slot, TensorSet &inputs, TensorSet &outputs)
{
    KernelLibrary &lib = slot == Slot::Reference ? *m_reference : *m_candidate;
    const kf_params params{m_params.data(), static_cast<int32_t>(m_params.size())};
    int rc = 0;
    try {
        rc = lib.entry()(inputs.descriptors(), inputs.count(), outputs.descriptors(), outputs.count(), &params,
                         m_gpu.stream());
    } catch (...) {
        throw EntryFailure{slot, -1, "kf_entry threw a C++ exception"};
    }
    if (rc != 0)
        throw EntryFailure{slot, rc, ""};
}

void Evaluator::verify(const TaskSpec &task, const EvalOptions &options, Verification &v)
{
    const cudaStream_t s = m_gpu.stream();
    const std::size_t nout = task.outputs.size();
    const std::size_t nin = task.inputs.size();
    v.totals.assign(nout, {});
    for (const TensorSpec &o : task.outputs)
        v.elements += static_cast<unsigned long long>(o.numel());

    auto *hostStats = static_cast<gpu::CompareStats *>(m_hostScratch);
    auto *devStats = m_deviceScratch.as<gpu::CompareStats>();
    auto *devCounters = reinterpret_cast<unsigned long long *>(devStats + nout);
    auto *hostCounters = reinterpret_cast<unsigned long long *>(hostStats + nout);

    // Compares every output on the launch stream only: no device-wide synchronization, so work a kernel
    // left on another stream may still be running (that is the point of the early comparison).
    const auto compareAll = [&](const TensorSet &expected, const TensorSet &got) {
        for (std::size_t k = 0; k < nout; ++k) {
            const Tolerance tol = task.toleranceFor(task.outputs[k].dtype);
            KF_CUDA(gpu::resetCompareStats(devStats + k, s));
            KF_CUDA(gpu::compare(expected.buffer(k).get(), got.buffer(k).get(), static_cast<int>(task.outputs[k].dtype),
                                 task.outputs[k].numel(), tol.atol, tol.rtol, devStats + k, s));
        }
        KF_CUDA(cudaMemcpyAsync(hostStats, devStats, nout * sizeof(gpu::CompareStats), cudaMemcpyDeviceToHost, s));
        KF_CUDA(cudaStreamSynchronize(s));
        return std::vector<gpu::CompareStats>(hostStats, hostStats + nout);
    };
    // Number of differing words of each pair of same-shaped tensors.
    const auto differences = [&](const TensorSet &a, const TensorSet &b) {
        const std::size_t n = a.size();
        KF_CUDA(cudaMemsetAsync(devCounters, 0, n * sizeof(unsigned long long), s));
        for (std::size_t k = 0; k < n; ++k)
            KF_CUDA(gpu::countDifferences(a.buffer(k).get(), b.buffer(k).get(), a.buffer(k).bytes(), devCounters + k, s));
        KF_CUDA(cudaMemcpyAsync(hostCounters, devCounters, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
        KF_CUDA(cudaStreamSynchronize(s));
        return std::vector<unsigned long long>(hostCounters, hostCounters + n);
    };

    std::shared_ptr<TensorSet> firstReference;
    bool sameAsFirst = true;
    for (int t = 0; t < options.trials; ++t) {
        const uint64_t seed = options.seed + static_cast<uint64_t>(t);
        const std::string trial = "trial " + std::to_string(t + 1) + " (seed " + std::to_string(seed) + ")";
        m_phase = "preparing " + trial;
        TensorSet inputs(task.inputs);
        inputs.generate(seed, s);
        TensorSet pristine(task.inputs);
        pristine.copyFrom(inputs, s);

        const std::string key = ReferenceCache::key(m_reference->contentHash(), task, seed);
        std::shared_ptr<TensorSet> expected = m_cache.find(key);
        if (expected) {
            ++v.referenceCached;
        } else {
            expected = std::make_shared<TensorSet>(task.outputs);
            expected->poison(0, s);
            KF_CUDA(cudaStreamSynchronize(s));
            m_phase = "the reference, " + trial;
            call(Slot::Reference, inputs, *expected);
            KF_CUDA(cudaDeviceSynchronize());
            m_phase = "checking the reference, " + trial;
            for (unsigned long long d : differences(inputs, pristine)) {
                if (d) { // a reference bug; give the candidate the inputs it should see
                    v.referenceMutates = true;
                    inputs.copyFrom(pristine, s);
                    break;
                }
            }
            m_cache.insert(key, expected);
        }
        if (t == 0) {
            firstReference = expected;
        } else if (sameAsFirst) {
            for (unsigned long long d : differences(*expected, *firstReference))
                sameAsFirst = sameAsFirst && d == 0;
        }

        TensorSet got(task.outputs);
        got.poison(t, s);
        KF_CUDA(cudaStreamSynchronize(s));
        m_phase = "the candidate, " + trial;
        call(Slot::Candidate, inputs, got);
        // Errors surfacing from here to the device-wide synchronize come from the candidate's work.
        const std::vector<gpu::CompareStats> early = compareAll(*expected, got);
        KF_CUDA(cudaDeviceSynchronize());
        m_phase = "comparing, " + trial;
        const std::vector<gpu::CompareStats> late = compareAll(*expected, got);
        ++v.trials;

        unsigned long long earlyBad = 0, lateBad = 0;
        for (std::size_t k = 0; k < nout; ++k) {
            earlyBad += early[k].mismatches;
            lateBad += late[k].mismatches;
            OutputTotals &o = v.totals[k];
            o.mismatches += late[k].mismatches;
            o.nans += late[k].nanCount;
            o.infs += late[k].infCount;
            o.maxAbs = std::max(o.maxAbs, bitsToDouble(late[k].maxAbsBits));
            o.maxRel = std::max(o.maxRel, bitsToDouble(late[k].maxRelBits));
        }
        // Right only once the whole device was synchronized: some of the work ran outside `stream`.
        if (earlyBad > lateBad)
            v.sideStream = true;

        const std::vector<unsigned long long> changed = differences(inputs, pristine);
        for (std::size_t k = 0; k < nin; ++k) {
            if (changed[k]
                && std::find(v.mutatedInputs.begin(), v.mutatedInputs.end(), task.inputs[k].name) == v.mutatedInputs.end())
                v.mutatedInputs.push_back(task.inputs[k].name);
        }

        if (lateBad) {
            std::size_t k = 0;
            while (late[k].mismatches == 0)
                ++k;
            const TensorSpec &spec = task.outputs[k];
            const std::size_t es = dtypeSize(spec.dtype);
            const unsigned long long index = late[k].firstIndex;
            unsigned char raw[16] = {};
            KF_CUDA(cudaMemcpyAsync(raw, static_cast<const unsigned char *>(expected->buffer(k).get()) + index * es, es,
                                    cudaMemcpyDeviceToHost, s));
            KF_CUDA(cudaMemcpyAsync(raw + 8, static_cast<const unsigned char *>(got.buffer(k).get()) + index * es, es,
                                    cudaMemcpyDeviceToHost, s));
            KF_CUDA(cudaStreamSynchronize(s));
            const double e = elementValue(raw, spec.dtype);
            const double g = elementValue(raw + 8, spec.dtype);
            const unsigned char pb = TensorSet::poisonByte(spec.dtype, t);
            bool poisoned = true;
            for (std::size_t b = 0; b < es; ++b)
                poisoned = poisoned && raw[8 + b] == pb;
            Json coords = Json::array();
            {
                unsigned long long rest = index;
                std::vector<int64_t> dims = spec.dims();
                std::vector<int64_t> c(dims.size());
                for (std::size_t d = dims.size(); d-- > 0;) {
                    c[d] = static_cast<int64_t>(rest % static_cast<unsigned long long>(dims[d]));
                    rest /= static_cast<unsigned long long>(dims[d]);
                }
                for (int64_t x : c)
                    coords.push_back(x);
            }
            v.firstMismatch = Json{{"output", spec.name},   {"index", index},   {"coords", coords},
                                   {"expected", number(e)}, {"got", number(g)}, {"poison", poisoned},
                                   {"trial", t + 1},        {"seed", seed}};
            const Tolerance tol = task.toleranceFor(spec.dtype);
            std::string why = spec.name + ": " + std::to_string(late[k].mismatches) + " of "
                              + std::to_string(spec.numel()) + " elements differ from the reference";
            if (isFloating(spec.dtype))
                why += " beyond atol " + fmt(tol.atol) + " + rtol " + fmt(tol.rtol) + " * |expected|";
            why += " in " + trial + "; first at index " + std::to_string(index) + " " + coords.dump() + ": expected "
                   + fmt(e, 9) + ", got " + fmt(g, 9);
            if (poisoned)
                why += " (still the poison pattern: the element was never written)";
            v.reason = why;
            v.failed = true;
            break;
        }
        if (!v.mutatedInputs.empty()) {
            std::string names;
            for (const std::string &n : v.mutatedInputs)
                names += (names.empty() ? "" : ", ") + n;
            v.reason = "the candidate modified its input" + std::string(v.mutatedInputs.size() > 1 ? "s " : " ") + names
                       + " (inputs must stay unchanged) in " + trial;
            v.failed = true;
            break;
        }
    }
    if (v.trials >= 2 && !v.failed)
        v.dependsOnInputs = !sameAsFirst;
}

float Evaluator::runOnce(TimingSetup &setup, Slot slot, int index, const char *what, EvalObserver *observer)
{
    const cudaStream_t s = m_gpu.stream();
    TensorSet &out = slot == Slot::Reference ? setup.refOut : setup.candOut;
    m_gpu.flushL2(s);
    KF_CUDA(cudaEventRecord(m_start, s));
    if (observer)
        observer->beforeRun(slot, index);
    m_phase = std::string(what) + slotName(slot);
    call(slot, setup.inputs, out);
    // Device-wide: work the kernel left on other streams is part of its time.
    KF_CUDA(cudaDeviceSynchronize());
    KF_CUDA(cudaEventRecord(m_stop, s));
    KF_CUDA(cudaEventSynchronize(m_stop));
    float ms = 0;
    KF_CUDA(cudaEventElapsedTime(&ms, m_start, m_stop));
    if (observer)
        observer->afterRun(slot, index, ms);
    return ms;
}

TimingResult Evaluator::timedRuns(TimingSetup &setup, const EvalOptions &options, EvalObserver *observer,
                                  const TimingContext &ctx)
{
    const auto warmupStart = std::chrono::steady_clock::now();
    for (int i = 0;; ++i) {
        const double elapsed =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - warmupStart).count();
        if (i >= options.warmup && elapsed >= options.warmupMs)
            break;
        runOnce(setup, Slot::Reference, i, "warming up the ", nullptr);
        runOnce(setup, Slot::Candidate, i, "warming up the ", nullptr);
    }
    if (observer)
        observer->beforeTimedRuns(ctx);
    std::vector<float> ref, cand;
    const auto begin = std::chrono::steady_clock::now();
    for (int i = 0;; ++i) {
        // Alternate the order so neither kernel always runs right after the other.
        if (i % 2 == 0) {
            ref.push_back(runOnce(setup, Slot::Reference, i, "timing the ", nullptr));
            cand.push_back(runOnce(setup, Slot::Candidate, i, "timing the ", nullptr));
        } else {
            cand.push_back(runOnce(setup, Slot::Candidate, i, "timing the ", nullptr));
            ref.push_back(runOnce(setup, Slot::Reference, i, "timing the ", nullptr));
        }
        const double elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
        const int runs = i + 1;
        if (runs >= options.maxRuns || (runs >= options.minRuns && elapsed >= options.minTimeMs))
            break;
    }
    TimingResult r;
    r.reference = summarize(ref);
    r.candidate = summarize(cand);
    r.speedup = r.candidate.medianMs > 0 ? r.reference.medianMs / r.candidate.medianMs : 0;
    if (observer)
        observer->afterTimedRuns(ctx, r);
    return r;
}

void Evaluator::tracePass(TimingSetup &setup, const EvalOptions &options, EvalObserver *observer, const TimingContext &ctx)
{
    observer->beginTrace(ctx);
    for (int i = 0; i < options.traceRuns; ++i) {
        runOnce(setup, Slot::Reference, i, "tracing the ", observer);
        runOnce(setup, Slot::Candidate, i, "tracing the ", observer);
    }
    observer->endTrace(ctx);
}

std::function<void()> Evaluator::launcher(TimingSetup &setup, Slot slot, const char *what)
{
    return [this, &setup, slot, what] {
        m_phase = std::string(what) + slotName(slot);
        call(slot, setup.inputs, slot == Slot::Reference ? setup.refOut : setup.candOut);
        KF_CUDA(cudaDeviceSynchronize());
    };
}

void Evaluator::metricsPass(TimingSetup &setup, EvalObserver *observer, const TimingContext &ctx)
{
    if (!observer)
        return;
    observer->metricsPass(ctx, launcher(setup, Slot::Candidate, "profiling the "),
                          launcher(setup, Slot::Reference, "profiling the "));
}

void Evaluator::sourceProfilePass(TimingSetup &setup, EvalObserver *observer, const TimingContext &ctx)
{
    if (!observer)
        return;
    observer->sourceProfilePass(ctx, launcher(setup, Slot::Candidate, "PC sampling the "),
                                launcher(setup, Slot::Reference, "PC sampling the "));
}

Json Evaluator::evaluate(const TaskSpec &task, const EvalOptions &options, KernelLibrary &reference,
                         KernelLibrary &candidate, EvalObserver *observer, const Progress &progress)
{
    m_reference = &reference;
    m_candidate = &candidate;
    m_restartRequired = false;
    m_params.clear();
    for (const auto &[name, value] : task.params)
        m_params.push_back({name.c_str(), value});
    const auto stage = [&](const char *name) {
        if (progress)
            progress(name);
    };

    Json result;
    result["verdict"] = "correct";
    result["message"] = "";
    result["restart_required"] = false;
    Verification v;
    std::optional<TimingResult> timing;
    std::vector<std::string> flags;
    std::vector<std::string> warnings;
    std::string stdoutText;
    bool stdoutTruncated = false;
    // A run that failed keeps what the kernel printed up to the failure, unless its stdout was already taken.
    const auto keepFailedRunStdout = [&] {
        if (!m_capture)
            return;
        bool truncated = false;
        std::string rest = m_capture->collect(kStdoutCap, truncated);
        if (stdoutText.empty()) {
            stdoutText = std::move(rest);
            stdoutTruncated = truncated;
        }
    };

    TimingContext ctx;
    ctx.stream = m_gpu.stream();
    ctx.trace = options.trace;
    ctx.metrics = options.metrics;
    ctx.metricNames = options.metricNames;
    ctx.device = m_gpu.index();
    ctx.flops = task.flops.present() ? task.flops.value : -1;
    ctx.bytes = task.bytes.present() ? task.bytes.value : -1;
    ctx.referenceKey = ReferenceCache::key(m_reference->contentHash(), task, 0);
    ctx.sourceProfile = options.sourceProfile;
    ctx.sourceProfilePeriod = options.sourceProfilePeriod;
    ctx.sourceProfileReference = options.sourceProfileReference;
    ctx.candidateLibrary = m_candidate->path().string();
    ctx.referenceLibrary = m_reference->path().string();
    ctx.seed = options.seed;
    if (options.sourceProfile)
        ctx.task = toJson(task);

    try {
        m_phase = "setting up";
        const std::size_t nout = task.outputs.size(), nin = task.inputs.size();
        const std::size_t scratch = nout * sizeof(gpu::CompareStats) + std::max(nin, nout) * sizeof(unsigned long long);
        m_deviceScratch = DeviceBuffer(scratch);
        if (m_hostScratch)
            cudaFreeHost(m_hostScratch);
        m_hostScratch = nullptr;
        KF_CUDA(cudaMallocHost(&m_hostScratch, scratch));

        stage("verifying");
        if (m_capture)
            m_capture->begin();
        verify(task, options, v);
        if (m_capture)
            stdoutText = m_capture->collect(kStdoutCap, stdoutTruncated);
        if (!v.failed && options.timing) {
            stage("timing");
            m_phase = "preparing the timing runs";
            TimingSetup setup(task);
            setup.inputs.generate(options.seed, ctx.stream);
            KF_CUDA(cudaStreamSynchronize(ctx.stream));
            if (m_capture)
                m_capture->silence();
            if (observer && (task.flops.present() || task.bytes.present())) {
                const DevicePeaks &pk = m_gpu.peaks();
                ctx.peakCopyGbps = pk.copyGbps;
                ctx.peakFmaGflops = pk.fmaGflops;
            }
            timing = timedRuns(setup, options, observer, ctx);
            if (options.trace && observer) {
                stage("tracing");
                tracePass(setup, options, observer, ctx);
            }
            if (options.metrics && observer) {
                stage("profiling");
                metricsPass(setup, observer, ctx);
            }
            if (options.sourceProfile && observer) {
                stage("source_profile");
                sourceProfilePass(setup, observer, ctx);
            }
            if (m_capture) {
                bool unused = false;
                m_capture->collect(0, unused);
            }
        }
    } catch (const CudaFailure &f) {
        keepFailedRunStdout();
        m_restartRequired = m_gpu.isBroken(f.code);
        result["verdict"] = "cuda_error";
        result["cuda_error"] = cudaGetErrorName(f.code);
        result["message"] = std::string(cudaGetErrorName(f.code)) + " (" + cudaGetErrorString(f.code) + ") in "
                            + m_phase + ", at " + f.where
                            + (m_restartRequired ? "; the CUDA context is unusable, the worker exits" : "");
    } catch (const EntryFailure &f) {
        keepFailedRunStdout();
        const auto code = static_cast<cudaError_t>(f.rc);
        m_restartRequired = f.rc > 0 && m_gpu.isBroken(code);
        result["verdict"] = "cuda_error";
        const std::string who = f.slot == Slot::Reference ? "the reference's kf_entry" : "kf_entry";
        if (f.rc > 0) {
            result["cuda_error"] = cudaGetErrorName(code);
            result["message"] = who + " returned " + std::to_string(f.rc) + " (" + cudaGetErrorName(code) + ": "
                                + cudaGetErrorString(code) + ") in " + m_phase;
        } else {
            result["cuda_error"] = "kf_entry_failed";
            result["message"] = who + (f.what.empty() ? " returned " + std::to_string(f.rc) : ": " + f.what) + " in "
                                + m_phase;
        }
        if (m_restartRequired)
            result["message"] = result["message"].get<std::string>() + "; the CUDA context is unusable, the worker exits";
    }
    result["restart_required"] = m_restartRequired;

    // Verification.
    Json ver;
    ver["trials"] = v.trials;
    double maxAbs = 0, maxRel = 0;
    unsigned long long mismatches = 0, nans = 0, infs = 0;
    Json perOutput = Json::array();
    for (std::size_t k = 0; k < v.totals.size(); ++k) {
        const OutputTotals &o = v.totals[k];
        maxAbs = std::max(maxAbs, o.maxAbs);
        maxRel = std::max(maxRel, o.maxRel);
        mismatches += o.mismatches;
        nans += o.nans;
        infs += o.infs;
        perOutput.push_back(Json{{"name", task.outputs[k].name},
                                 {"mismatches", o.mismatches},
                                 {"max_abs_err", o.maxAbs},
                                 {"max_rel_err", o.maxRel},
                                 {"nan_count", o.nans},
                                 {"inf_count", o.infs}});
    }
    ver["max_abs_err"] = maxAbs;
    ver["max_rel_err"] = maxRel;
    ver["mismatches"] = mismatches;
    ver["elements"] = v.elements;
    ver["first_mismatch"] = v.firstMismatch;
    ver["nan_count"] = nans;
    ver["inf_count"] = infs;
    ver["input_mutated"] = !v.mutatedInputs.empty();
    ver["mutated_inputs"] = v.mutatedInputs;
    ver["output_depends_on_inputs"] = v.dependsOnInputs ? Json(*v.dependsOnInputs) : Json(nullptr);
    ver["reference_cached"] = v.referenceCached;
    ver["outputs"] = perOutput;
    ver["reason"] = v.reason;
    result["verification"] = ver;

    if (result["verdict"] == "correct" && v.failed) {
        result["verdict"] = "incorrect";
        result["message"] = v.reason;
    }

    if (v.dependsOnInputs && !*v.dependsOnInputs) {
        flags.push_back("degenerate_output");
        warnings.push_back("The reference output does not depend on the inputs: it was identical for "
                           + std::to_string(v.trials)
                           + " different seeds. A kernel that writes constants passes "
                             "verification here, and its speedup says nothing about how fast the operation is computed.");
    } else if (v.dependsOnInputs && task.degenerate) {
        warnings.push_back("task.json marks the task degenerate, but the reference output changed with the inputs.");
    }
    if (v.sideStream) {
        flags.push_back("side_stream_work");
        warnings.push_back("The outputs were not complete when the work on the launch stream had finished: the "
                           "candidate left work on another stream (or the legacy default stream). Its time includes "
                           "that work, but code that uses its outputs on the stream would read unfinished results.");
    }
    if (v.referenceMutates) {
        flags.push_back("reference_mutates_inputs");
        warnings.push_back("The reference modified its inputs; the candidate was given the original inputs.");
    }

    if (timing) {
        Json t;
        t["reference"] = statsJson(timing->reference, options.samples);
        t["candidate"] = statsJson(timing->candidate, options.samples);
        t["speedup"] = timing->speedup;
        result["timing"] = t;
        if (timing->reference.cv > 0.1 || timing->candidate.cv > 0.1)
            flags.push_back("unstable_timing");

        if (task.flops.present() || task.bytes.present()) {
            const DevicePeaks &pk = m_gpu.peaks();
            Json roof;
            const double candS = timing->candidate.medianMs * 1e-3, refS = timing->reference.medianMs * 1e-3;
            const double flopsFloorMs = pk.fmaGflops > 0 ? task.flops.value / (pk.fmaGflops * 1e6) : 0;
            const double bytesFloorMs = pk.copyGbps > 0 ? task.bytes.value / (pk.copyGbps * 1e6) : 0;
            roof["flops"] = task.flops.value;
            roof["bytes"] = task.bytes.value;
            roof["arithmetic_intensity"] = task.bytes.value > 0 ? task.flops.value / task.bytes.value : 0;
            roof["peak_fma_gflops"] = pk.fmaGflops;
            roof["peak_copy_gbps"] = pk.copyGbps;
            roof["flops_floor_ms"] = flopsFloorMs;
            roof["bytes_floor_ms"] = bytesFloorMs;
            roof["floor_ms"] = std::max(flopsFloorMs, bytesFloorMs);
            roof["candidate_gflops"] = candS > 0 ? task.flops.value / candS * 1e-9 : 0;
            roof["candidate_gbps"] = candS > 0 ? task.bytes.value / candS * 1e-9 : 0;
            roof["reference_gflops"] = refS > 0 ? task.flops.value / refS * 1e-9 : 0;
            roof["reference_gbps"] = refS > 0 ? task.bytes.value / refS * 1e-9 : 0;
            roof["fraction_of_floor"] = timing->candidate.medianMs > 0
                                            ? std::max(flopsFloorMs, bytesFloorMs) / timing->candidate.medianMs
                                            : 0;
            result["roofline"] = roof;
            // Only the byte floor decides the flag: tensor cores exceed the FP32 FMA peak many times over,
            // but nothing moves the task's minimum bytes faster than the measured copy bandwidth.
            if (bytesFloorMs > 0 && timing->candidate.medianMs < 0.9 * bytesFloorMs) {
                flags.push_back("below_speed_of_light");
                warnings.push_back("The candidate's median time " + fmtMs(timing->candidate.medianMs)
                                   + " is below the time needed to move the task's bytes at the measured copy bandwidth ("
                                   + fmtMs(bytesFloorMs) + "): it cannot have done all the work the task describes.");
            } else if (flopsFloorMs > 0 && timing->candidate.medianMs < 0.9 * flopsFloorMs) {
                // Not impossible, and the most useful thing a contrast can show: core/eval/speedoflight.h.
                flags.push_back("beats_flop_floor");
                warnings.push_back("The candidate's median time " + fmtMs(timing->candidate.medianMs)
                                   + " is below the time the task's flops take at the measured FP32 FMA peak ("
                                   + fmtMs(flopsFloorMs)
                                   + "): faster than the task's declared arithmetic allows: "
                                     "either work is skipped or the task's `flops` counts avoidable work, such as an "
                                     "algebraic rewrite (tensor cores, too, exceed the FP32 FMA peak).");
            }
        }
    }

    if (observer) {
        result["flags"] = flags;
        observer->contribute(result);
        flags = result["flags"].get<std::vector<std::string>>();
    }
    result["flags"] = flags;
    result["warnings"] = warnings;
    if (options.sourceProfile && !result.contains("source_profile")) {
        // Asked for but not run: say why, so the client shows a reason instead of an empty panel.
        std::string why;
        std::string missing = "timing";
        if (result["verdict"] != "correct")
            why = "The source-level pass runs after a correct candidate was timed; this evaluation ended with verdict "
                  + result["verdict"].get<std::string>() + ".";
        else if (!options.timing)
            why = "The source-level pass runs after timing, and this evaluation did not time (options.timing false).";
        else {
            missing = "profiler";
            why = "This worker was built without the CUPTI profiler (kforge_profiler), so it cannot sample PCs.";
        }
        result["source_profile"] = Json{{"status", "unavailable"},
                                        {"reason", why},
                                        {"missing", Json::array({missing})},
                                        {"cost_ms", 0},
                                        {"period", 0},
                                        {"runs", 0},
                                        {"stall_reasons", Json::array()},
                                        {"cupti_stall_reasons", Json::object()},
                                        {"kernels", Json::array()}};
    }

    if (result["verdict"] == "correct") {
        std::string msg = "correct";
        if (timing)
            msg += ": " + fmt(timing->speedup, 4) + "x (reference " + fmtMs(timing->reference.medianMs) + ", candidate "
                   + fmtMs(timing->candidate.medianMs) + ")";
        for (const std::string &w : warnings)
            msg += ". Warning: " + w;
        result["message"] = msg;
    }
    result["stdout"] = stdoutText;
    result["stdout_truncated"] = stdoutTruncated;
    return result;
}

} // namespace kforge::runtime
