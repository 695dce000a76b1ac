#include "core/runtime/worker/precisioncontract.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

namespace kforge::runtime {
namespace {

double halfBits(uint16_t h)
{
    const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double v;
    if (exponent == 0)
        v = std::ldexp(mantissa, -24); // subnormal
    else if (exponent == 31)
        v = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else
        v = std::ldexp(1024 + mantissa, exponent - 25);
    return sign ? -v : v;
}

double bf16Bits(uint16_t b)
{
    const uint32_t bits = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

std::string sci(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1e", v);
    return buf;
}

std::string ratioText(double cand, double ref)
{
    if (ref <= 0)
        return "the reference exact";
    char buf[32];
    const double r = cand / ref;
    std::snprintf(buf, sizeof buf, r >= 10 ? "%.0fx" : "%.1fx", r);
    return buf;
}

// How close an output is to its threshold (above 1: lost): the worst output represents the contract.
double closeness(const PrecisionOutput &o)
{
    return o.threshold > 0 ? o.candidateError / o.threshold : 0;
}

} // namespace

double precisionFloor(Dtype dtype)
{
    switch (dtype) {
    case Dtype::F32: return std::ldexp(1.0, -14);
    case Dtype::F16: return std::ldexp(1.0, -7);
    case Dtype::BF16: return std::ldexp(1.0, -4);
    default: return 0;
    }
}

std::vector<double> toDoubles(const void *data, Dtype dtype, std::size_t n)
{
    std::vector<double> out(n);
    const auto *bytes = static_cast<const unsigned char *>(data);
    for (std::size_t i = 0; i < n; ++i) {
        switch (dtype) {
        case Dtype::F32: {
            float f;
            std::memcpy(&f, bytes + 4 * i, 4);
            out[i] = f;
            break;
        }
        case Dtype::F64: std::memcpy(&out[i], bytes + 8 * i, 8); break;
        case Dtype::F16:
        case Dtype::BF16: {
            uint16_t h;
            std::memcpy(&h, bytes + 2 * i, 2);
            out[i] = dtype == Dtype::F16 ? halfBits(h) : bf16Bits(h);
            break;
        }
        case Dtype::I32: {
            int32_t v;
            std::memcpy(&v, bytes + 4 * i, 4);
            out[i] = v;
            break;
        }
        case Dtype::I64: {
            int64_t v;
            std::memcpy(&v, bytes + 8 * i, 8);
            out[i] = static_cast<double>(v);
            break;
        }
        case Dtype::U8: out[i] = bytes[i]; break;
        }
    }
    return out;
}

double maxRelativeError(const std::vector<double> &y, const std::vector<double> &exact)
{
    const std::size_t n = std::min(y.size(), exact.size());
    double sum = 0;
    std::size_t finite = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (std::isfinite(exact[i])) {
            sum += exact[i] * exact[i];
            ++finite;
        }
    if (finite == 0)
        return 0;
    const double rms = std::sqrt(sum / static_cast<double>(finite));
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(exact[i]))
            continue;
        if (!std::isfinite(y[i]))
            return std::numeric_limits<double>::infinity();
        const double scale = std::fabs(exact[i]) + rms;
        if (scale > 0)
            worst = std::max(worst, std::fabs(y[i] - exact[i]) / scale);
    }
    return worst;
}

void judgeOutput(PrecisionContract &contract, const std::string &name, Dtype dtype, const std::vector<double> &exact,
                 const std::vector<double> &reference, const std::vector<double> &candidate)
{
    const double floor = precisionFloor(dtype);
    if (floor <= 0)
        return;
    PrecisionOutput o;
    o.name = name;
    o.dtype = dtype;
    o.elements = exact.size();
    o.referenceError = maxRelativeError(reference, exact);
    o.candidateError = maxRelativeError(candidate, exact);
    o.threshold = std::max(kPrecisionRatio * o.referenceError, floor);
    o.lost = o.candidateError > o.threshold;
    contract.available = true;
    contract.outputs.push_back(std::move(o));
}

void concludePrecision(PrecisionContract &contract)
{
    contract.lost = false;
    contract.message.clear();
    if (contract.outputs.empty())
        return;
    const auto worst = std::max_element(contract.outputs.begin(), contract.outputs.end(),
                                        [](const PrecisionOutput &a, const PrecisionOutput &b) {
                                            return closeness(a) < closeness(b);
                                        });
    contract.lost = worst->lost;
    if (!contract.lost)
        return;
    contract.message = "Precision lowered: candidate max rel error " + sci(worst->candidateError)
                       + " vs float64, reference " + sci(worst->referenceError) + ": "
                       + ratioText(worst->candidateError, worst->referenceError) + " (output " + worst->name + ", "
                       + std::string(dtypeName(worst->dtype)) + "; an honest " + std::string(dtypeName(worst->dtype))
                       + " kernel stays under " + sci(worst->threshold)
                       + "). The tolerance let it pass; it computes in a lower precision than the task declares "
                         "(TF32, half precision or FP8 inside).";
}

nlohmann::ordered_json PrecisionContract::toJson() const
{
    nlohmann::ordered_json j;
    j["available"] = available;
    if (!available) {
        j["reason"] = reason;
        return j;
    }
    const auto number = [](double v) {
        return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
    };
    j["lost"] = lost;
    if (!outputs.empty()) {
        const auto worst = std::max_element(outputs.begin(), outputs.end(), [](const PrecisionOutput &a, const PrecisionOutput &b) {
            return closeness(a) < closeness(b);
        });
        j["candidate_error"] = number(worst->candidateError);
        j["reference_error"] = number(worst->referenceError);
        j["ratio"] = worst->referenceError > 0 ? number(worst->candidateError / worst->referenceError)
                                               : nlohmann::ordered_json(nullptr);
        j["threshold"] = worst->threshold;
        j["dtype"] = std::string(dtypeName(worst->dtype));
    }
    if (!message.empty())
        j["message"] = message;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const PrecisionOutput &o : outputs)
        list.push_back({{"name", o.name},
                        {"dtype", std::string(dtypeName(o.dtype))},
                        {"elements", o.elements},
                        {"candidate_error", number(o.candidateError)},
                        {"reference_error", number(o.referenceError)},
                        {"threshold", o.threshold},
                        {"lost", o.lost}});
    j["outputs"] = list;
    return j;
}

PrecisionContract PrecisionContract::notAvailable(std::string why)
{
    PrecisionContract c;
    c.reason = std::move(why);
    return c;
}

} // namespace kforge::runtime
