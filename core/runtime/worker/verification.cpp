#include "core/runtime/worker/verification.h"

#include "core/runtime/worker/nvcc.h"
#include "core/runtime/worker/seeds.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <unistd.h>

namespace kforge::runtime {
namespace {

using Json = nlohmann::ordered_json;

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

} // namespace

std::string formatNumber(double v, int precision)
{
    std::ostringstream s;
    s.precision(precision);
    s << v;
    return s.str();
}

std::string formatMs(double ms)
{
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(ms < 0.1 ? 4 : 3);
    s << ms << " ms";
    return s.str();
}

EdgeSchedule::EdgeSchedule(std::vector<EdgeTrial> trials)
{
    for (EdgeTrial &t : trials)
        m_trials.push_back(Outcome{std::move(t), Outcome::State::Pending, {}});
}

const EdgeTrial *EdgeSchedule::next()
{
    while (m_next < m_trials.size()) {
        Outcome &o = m_trials[m_next];
        if (o.state != Outcome::State::Pending) {
            ++m_next;
            continue;
        }
        if (o.trial.range == InputRange::Scaled && m_scaleBlocked) {
            o.state = Outcome::State::Skipped;
            o.reason = "not run: the reference already left the declared domain at " + m_blockedBy;
            ++m_next;
            continue;
        }
        return &o.trial;
    }
    return nullptr;
}

void EdgeSchedule::passed()
{
    if (m_next < m_trials.size())
        m_trials[m_next++].state = Outcome::State::Passed;
}

void EdgeSchedule::failed()
{
    if (m_next < m_trials.size())
        m_trials[m_next++].state = Outcome::State::Failed;
}

void EdgeSchedule::skipped(const std::string &why)
{
    if (m_next >= m_trials.size())
        return;
    Outcome &o = m_trials[m_next++];
    o.state = Outcome::State::Skipped;
    o.reason = why;
    if (o.trial.range == InputRange::Scaled && !m_scaleBlocked) {
        m_scaleBlocked = true;
        m_blockedBy = o.trial.label();
    }
}

bool EdgeSchedule::anyRan() const
{
    for (const Outcome &o : m_trials)
        if (o.state == Outcome::State::Passed || o.state == Outcome::State::Failed)
            return true;
    return false;
}

Json EdgeSchedule::toJson() const
{
    Json list = Json::array();
    for (const Outcome &o : m_trials) {
        Json j{{"range", o.trial.label()}};
        switch (o.state) {
        case Outcome::State::Passed:
            j["ran"] = true;
            j["passed"] = true;
            break;
        case Outcome::State::Failed:
            j["ran"] = true;
            j["passed"] = false;
            break;
        case Outcome::State::Skipped:
            j["ran"] = false;
            j["reason"] = o.reason;
            break;
        case Outcome::State::Pending:
            j["ran"] = false;
            j["reason"] = "not reached: verification ended before it";
            break;
        }
        list.push_back(j);
    }
    return list;
}

Json Verification::toJson(const TaskSpec &task) const
{
    Json ver;
    ver["trials"] = trials;
    double maxAbs = 0, maxRel = 0;
    unsigned long long mismatches = 0, nanCount = 0, infCount = 0;
    Json perOutput = Json::array();
    for (std::size_t k = 0; k < totals.size(); ++k) {
        const OutputTotals &o = totals[k];
        maxAbs = std::max(maxAbs, o.maxAbs);
        maxRel = std::max(maxRel, o.maxRel);
        mismatches += o.mismatches;
        nanCount += o.nans;
        infCount += o.infs;
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
    ver["elements"] = elements;
    ver["first_mismatch"] = firstMismatch;
    ver["nan_count"] = nanCount;
    ver["inf_count"] = infCount;
    ver["input_mutated"] = !mutatedInputs.empty();
    ver["mutated_inputs"] = mutatedInputs;
    ver["output_depends_on_inputs"] = dependsOnInputs ? Json(*dependsOnInputs) : Json(nullptr);
    ver["reference_cached"] = 0;
    ver["calls_compared"] = compared;
    ver["outputs"] = perOutput;
    ver["edge"] = edges.toJson();
    ver["unstable_numerics"] = unstableNumerics;
    ver["reason"] = reason;
    return ver;
}

Verifier::Verifier(GpuContext &gpu, const TaskSpec &task, BatchTimer &batches)
    : m_gpu(gpu)
    , m_task(task)
    , m_batches(batches)
{
    const std::size_t bytes = std::max<std::size_t>(task.outputs.size(), 1) * sizeof(gpu::CompareStats)
                              + sizeof(unsigned long long);
    m_device = DeviceBuffer(bytes);
    KF_CUDA(cudaMallocHost(&m_host, bytes));
    const std::size_t slotBytes = kSlotsPerSync * 2 * std::max<std::size_t>(task.outputs.size(), 1) * sizeof(gpu::CompareStats);
    m_slotStats = DeviceBuffer(slotBytes);
    KF_CUDA(cudaMallocHost(&m_slotStatsHost, slotBytes));
}

Verifier::~Verifier()
{
    if (m_host)
        cudaFreeHost(m_host);
    if (m_slotStatsHost)
        cudaFreeHost(m_slotStatsHost);
}

Tolerance Verifier::toleranceOf(std::size_t output) const
{
    Tolerance tol = m_task.toleranceFor(m_task.outputs[output].dtype);
    if (output < m_atolScale.size())
        tol.atol *= m_atolScale[output];
    return tol;
}

std::vector<gpu::CompareStats> Verifier::compareSlots(const std::vector<int> &slots)
{
    // One synchronize for up to kSlotsPerSync slots instead of two per slot (on the H200 most of a round's
    // comparison time was the kernels themselves, made faster in devicekernels.cu; this removes the rest).
    const cudaStream_t s = m_gpu.stream();
    const std::size_t nout = m_task.outputs.size();
    std::vector<gpu::CompareStats> out;
    out.reserve(slots.size() * 2 * nout);
    auto *dev = m_slotStats.as<gpu::CompareStats>();
    for (std::size_t start = 0; start < slots.size(); start += kSlotsPerSync) {
        const std::size_t n = std::min(kSlotsPerSync, slots.size() - start);
        for (std::size_t i = 0; i < n; ++i)
            for (int early = 1; early >= 0; --early)
                for (std::size_t k = 0; k < nout; ++k) {
                    const int slot = slots[start + i];
                    const Tolerance tol = toleranceOf(k);
                    gpu::CompareStats *stats = dev + (i * 2 + (early ? 0 : 1)) * nout + k;
                    KF_CUDA(gpu::resetCompareStats(stats, s));
                    const void *got = early ? m_batches.snapshot(slot, k) : m_batches.output(Side::Candidate, slot, k);
                    KF_CUDA(gpu::compare(m_batches.output(Side::Reference, slot, k), got,
                                         static_cast<int>(m_task.outputs[k].dtype), m_task.outputs[k].numel(), tol.atol,
                                         tol.rtol, stats, s));
                }
        KF_CUDA(cudaMemcpyAsync(m_slotStatsHost, dev, n * 2 * nout * sizeof(gpu::CompareStats), cudaMemcpyDeviceToHost, s));
        KF_CUDA(cudaStreamSynchronize(s));
        const auto *h = static_cast<const gpu::CompareStats *>(m_slotStatsHost);
        out.insert(out.end(), h, h + n * 2 * nout);
    }
    return out;
}

unsigned long long Verifier::referenceDifference(int a, int b)
{
    const cudaStream_t s = m_gpu.stream();
    auto *count = reinterpret_cast<unsigned long long *>(
        m_device.as<char>() + std::max<std::size_t>(m_task.outputs.size(), 1) * sizeof(gpu::CompareStats));
    KF_CUDA(cudaMemsetAsync(count, 0, sizeof *count, s));
    for (std::size_t k = 0; k < m_task.outputs.size(); ++k)
        KF_CUDA(gpu::countDifferences(m_batches.output(Side::Reference, a, k), m_batches.output(Side::Reference, b, k),
                                      m_task.outputs[k].sizeBytes(), count, s));
    unsigned long long result = 0;
    KF_CUDA(cudaMemcpyAsync(&result, count, sizeof result, cudaMemcpyDeviceToHost, s));
    KF_CUDA(cudaStreamSynchronize(s));
    return result;
}

std::vector<NonFinite> Verifier::referenceNonFinite(const std::vector<int> &slots, std::vector<double> *maxAbs)
{
    const std::size_t nout = m_task.outputs.size();
    std::vector<NonFinite> counts(nout);
    if (maxAbs)
        maxAbs->assign(nout, 0.0);
    const cudaStream_t s = m_gpu.stream();
    if (!m_zeros.get()) {
        std::size_t largest = 1;
        for (const TensorSpec &o : m_task.outputs)
            largest = std::max(largest, o.sizeBytes());
        m_zeros = DeviceBuffer(largest);
        KF_CUDA(cudaMemsetAsync(m_zeros.get(), 0, largest, s));
    }
    auto *dev = m_device.as<gpu::CompareStats>();
    for (int slot : slots) {
        for (std::size_t k = 0; k < nout; ++k) {
            // The reference against zeros: its NaN and Inf counts, and max |value| over the finite elements.
            KF_CUDA(gpu::resetCompareStats(dev + k, s));
            const void *ref = m_batches.output(Side::Reference, slot, k);
            KF_CUDA(gpu::compare(m_zeros.get(), ref, static_cast<int>(m_task.outputs[k].dtype),
                                 m_task.outputs[k].numel(), 0, 0, dev + k, s));
        }
        KF_CUDA(cudaMemcpyAsync(m_host, dev, nout * sizeof(gpu::CompareStats), cudaMemcpyDeviceToHost, s));
        KF_CUDA(cudaStreamSynchronize(s));
        const auto *h = static_cast<const gpu::CompareStats *>(m_host);
        for (std::size_t k = 0; k < nout; ++k) {
            counts[k].nan += h[k].nanCount;
            counts[k].inf += h[k].infCount;
            if (maxAbs)
                (*maxAbs)[k] = std::max((*maxAbs)[k], bitsToDouble(h[k].maxAbsBits));
        }
    }
    return counts;
}

void Verifier::compare(const std::vector<int> &slots, const std::string &round, uint64_t roundSeed, Verification &v)
{
    const std::size_t nout = m_task.outputs.size();
    if (v.totals.size() != nout) {
        v.totals.assign(nout, {});
        v.elements = 0;
        for (const TensorSpec &o : m_task.outputs)
            v.elements += static_cast<unsigned long long>(o.numel());
    }
    const cudaStream_t s = m_gpu.stream();
    const std::vector<gpu::CompareStats> stats = compareSlots(slots);
    for (std::size_t i = 0; i < slots.size(); ++i) {
        const int slot = slots[i];
        const gpu::CompareStats *early = stats.data() + i * 2 * nout;
        const gpu::CompareStats *late = early + nout;
        ++v.compared;
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
        // Right only after the host's device-wide synchronize: some of the work was not joined back to the
        // stream before the last call returned.
        if (earlyBad > lateBad)
            v.sideStream = true;
        if (!lateBad)
            continue;
        std::size_t k = 0;
        while (late[k].mismatches == 0)
            ++k;
        const TensorSpec &spec = m_task.outputs[k];
        const std::size_t es = dtypeSize(spec.dtype);
        const unsigned long long index = late[k].firstIndex;
        unsigned char raw[16] = {};
        KF_CUDA(cudaMemcpyAsync(raw,
                                static_cast<const unsigned char *>(m_batches.output(Side::Reference, slot, k)) + index * es,
                                es, cudaMemcpyDeviceToHost, s));
        KF_CUDA(cudaMemcpyAsync(raw + 8,
                                static_cast<const unsigned char *>(m_batches.output(Side::Candidate, slot, k)) + index * es,
                                es, cudaMemcpyDeviceToHost, s));
        KF_CUDA(cudaStreamSynchronize(s));
        const double e = elementValue(raw, spec.dtype);
        const double g = elementValue(raw + 8, spec.dtype);
        const unsigned char pb = m_batches.poisonOf(Side::Candidate, slot);
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
        const uint64_t setSeed = deriveSeed(roundSeed, static_cast<uint64_t>(slot) + 1);
        v.firstMismatch = Json{{"output", spec.name},   {"index", index},   {"coords", coords},
                               {"expected", number(e)}, {"got", number(g)}, {"poison", poisoned},
                               {"trial", round},        {"call", slot},     {"seed", setSeed}};
        const Tolerance tol = toleranceOf(k);
        std::string why = spec.name + ": " + std::to_string(late[k].mismatches) + " of " + std::to_string(spec.numel())
                          + " elements differ from the reference";
        if (isFloating(spec.dtype))
            why += " beyond atol " + formatNumber(tol.atol) + " + rtol " + formatNumber(tol.rtol) + " * |expected|";
        why += " in " + round + ", call " + std::to_string(slot + 1) + "; first at index " + std::to_string(index) + " "
               + coords.dump() + ": expected " + formatNumber(e, 9) + ", got " + formatNumber(g, 9);
        if (poisoned)
            why += " (still the poison pattern: the element was never written)";
        v.reason = why;
        v.failed = true;
        return;
    }
}

// compute-sanitizer on PATH, else under CUDA_HOME (or CUDA_PATH) /bin; empty when neither has it.
std::string findComputeSanitizer()
{
    if (std::string onPath = findOnPath("compute-sanitizer"); !onPath.empty())
        return onPath;
    for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
        if (const char *home = std::getenv(var); home && *home) {
            const std::filesystem::path c = std::filesystem::path(home) / "bin" / "compute-sanitizer";
            std::error_code ec;
            if (std::filesystem::is_regular_file(c, ec) && ::access(c.c_str(), X_OK) == 0)
                return std::filesystem::absolute(c, ec).string();
        }
    return {};
}

// The sanitizer's report lines ("========= ..."), at most `max`, and its "ERROR SUMMARY: N error(s)" count
// (-1 when it printed none).
std::vector<std::string> sanitizerLines(const std::string &text, std::size_t max, long long &summary)
{
    std::vector<std::string> lines;
    summary = -1;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        if (line.rfind("=========", 0) != 0)
            continue;
        if (const std::size_t at = line.find("ERROR SUMMARY:"); at != std::string::npos) {
            summary = std::atoll(line.c_str() + at + 14);
            continue;
        }
        const std::string body = line.substr(
            line.find_first_not_of("= ") == std::string::npos ? line.size() : line.find_first_not_of("= "));
        if (!body.empty() && lines.size() < max)
            lines.push_back(body);
    }
    return lines;
}

} // namespace kforge::runtime
