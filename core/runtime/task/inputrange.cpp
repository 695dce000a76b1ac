#include "core/runtime/task/inputrange.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kforge::runtime {
namespace {

double usableScale(double scale)
{
    return std::isfinite(scale) && scale > 0 ? scale : 1.0;
}

void add(std::vector<double> &values, double v)
{
    // -0.0 == 0.0, so compare bit patterns through signbit as well.
    for (double have : values)
        if (have == v && std::signbit(have) == std::signbit(v))
            return;
    values.push_back(v);
}

// Specials of an integer-valued input with inclusive bounds [lo, hi]: the extremes, and 0 and -1 inside them.
std::vector<double> boundedIntegers(double lo, double hi)
{
    std::vector<double> v;
    if (!(lo <= hi))
        return v;
    add(v, lo);
    add(v, hi);
    for (double x : {0.0, -1.0})
        if (x >= lo && x <= hi)
            add(v, x);
    return v;
}

} // namespace

double dtypeMax(Dtype t)
{
    switch (t) {
    case Dtype::F32: return std::numeric_limits<float>::max();
    case Dtype::F16: return 65504.0;
    case Dtype::BF16: return std::ldexp(255.0, 120); // 0x7f7f: (2 - 2^-7) * 2^127
    case Dtype::F64: return std::numeric_limits<double>::max();
    case Dtype::I32: return 2147483647.0;
    case Dtype::I64: return 9223372036854774784.0; // the largest double below 2^63
    case Dtype::U8: return 255.0;
    }
    return 0;
}

double dtypeLowest(Dtype t)
{
    switch (t) {
    case Dtype::I32: return -2147483648.0;
    case Dtype::I64: return -9223372036854775808.0;
    case Dtype::U8: return 0;
    default: return -dtypeMax(t);
    }
}

double dtypeMinNormal(Dtype t)
{
    switch (t) {
    case Dtype::F32:
    case Dtype::BF16: return std::ldexp(1.0, -126);
    case Dtype::F16: return std::ldexp(1.0, -14);
    case Dtype::F64: return std::numeric_limits<double>::min();
    default: return 0;
    }
}

double dtypeDenormMin(Dtype t)
{
    switch (t) {
    case Dtype::F32: return std::ldexp(1.0, -149);
    case Dtype::BF16: return std::ldexp(1.0, -133);
    case Dtype::F16: return std::ldexp(1.0, -24);
    case Dtype::F64: return std::numeric_limits<double>::denorm_min();
    default: return 0;
    }
}

std::string EdgeTrial::label() const
{
    const auto number = [](double s) {
        return s == std::floor(s) && s < 1e15 ? std::to_string(static_cast<long long>(s)) : std::to_string(s);
    };
    switch (range) {
    case InputRange::Declared: return "declared";
    case InputRange::Scaled: return "scaled x" + number(scale);
    case InputRange::Special: return "special values (max/" + number(std::max(1.0, usableScale(scale))) + ")";
    }
    return "?";
}

InitSpec rangedInit(const TensorSpec &t, InputRange range, double scale)
{
    InitSpec init = t.init;
    if (range != InputRange::Scaled || !isFloating(t.dtype))
        return init;
    const double s = usableScale(scale);
    if (init.kind == InitSpec::Kind::Normal) {
        init.b *= s;
    } else if (init.kind == InitSpec::Kind::Uniform) {
        init.a *= s;
        init.b *= s;
    }
    return init;
}

std::vector<double> specialValues(const TensorSpec &t, InputRange range, double scale)
{
    if (range != InputRange::Special)
        return {};
    const InitSpec &init = t.init;
    if (init.kind == InitSpec::Kind::Constant)
        return {};
    if (init.kind == InitSpec::Kind::Integers) // high exclusive
        return boundedIntegers(std::ceil(init.a), std::ceil(init.b) - 1);
    if (!isFloating(t.dtype)) {
        if (init.kind == InitSpec::Kind::Uniform)
            return boundedIntegers(std::clamp(std::nearbyint(init.a), dtypeLowest(t.dtype), dtypeMax(t.dtype)),
                                   std::clamp(std::nearbyint(init.b), dtypeLowest(t.dtype), dtypeMax(t.dtype)));
        return boundedIntegers(dtypeLowest(t.dtype), dtypeMax(t.dtype));
    }
    const double large = dtypeMax(t.dtype) / std::max(1.0, usableScale(scale));
    const double normal = dtypeMinNormal(t.dtype), denorm = dtypeDenormMin(t.dtype);
    bool positive = true, negative = true, zero = true, negativeZero = true;
    if (init.kind == InitSpec::Kind::Uniform) {
        const double lo = std::min(init.a, init.b), hi = std::max(init.a, init.b);
        positive = hi > 0;
        negative = lo < 0;
        // Straddling 0: both zeros; starting at 0: +0; ending at 0: -0; beyond 0 on one side: neither.
        zero = lo <= 0 && hi >= 0 && !(hi == 0 && lo < 0);
        negativeZero = lo < 0 && hi >= 0;
    }
    std::vector<double> v;
    if (zero)
        add(v, 0.0);
    if (negativeZero)
        add(v, -0.0);
    if (positive)
        for (double x : {normal, denorm, large})
            add(v, x);
    if (negative)
        for (double x : {-normal, -denorm, -large})
            add(v, x);
    if (v.size() > static_cast<std::size_t>(kMaxSpecialValues))
        v.resize(static_cast<std::size_t>(kMaxSpecialValues));
    return v;
}

std::vector<EdgeTrial> edgeTrials(const TaskSpec &task)
{
    bool scalable = false, special = false;
    for (const TensorSpec &t : task.inputs) {
        if (t.numel() <= 0)
            continue;
        const InitSpec scaled = rangedInit(t, InputRange::Scaled, 16);
        scalable = scalable || !(scaled == t.init);
        special = special || !specialValues(t, InputRange::Special, 2).empty();
    }
    std::vector<EdgeTrial> trials;
    if (scalable)
        for (double s : {16.0, 256.0, 4096.0})
            trials.push_back({InputRange::Scaled, s});
    if (special)
        trials.push_back({InputRange::Special, 2});
    return trials;
}

bool edgeTrialBeyondDomain(const std::vector<NonFinite> &declared, const std::vector<NonFinite> &edge)
{
    if (declared.size() != edge.size())
        return true; // not the same outputs: nothing to compare against, so not a trial to judge by
    for (std::size_t k = 0; k < edge.size(); ++k)
        if (declared[k].nan + declared[k].inf == 0 && edge[k].nan + edge[k].inf > 0)
            return true;
    return false;
}

} // namespace kforge::runtime
