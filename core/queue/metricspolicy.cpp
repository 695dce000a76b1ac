#include "core/queue/metricspolicy.h"

#include "core/eval/evaloptions.h"
#include "core/session/population.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace Qt::StringLiterals;

namespace kforge {

QString MetricsPolicy::toString(Mode mode)
{
    switch (mode) {
    case Mode::Always: return u"always"_s;
    case Mode::WhenTheyPay: return u"when-they-pay"_s;
    case Mode::Never: return u"never"_s;
    }
    return {};
}

std::optional<MetricsPolicy::Mode> MetricsPolicy::modeFromString(const QString &s)
{
    for (Mode m : {Mode::Always, Mode::WhenTheyPay, Mode::Never})
        if (s == toString(m))
            return m;
    return std::nullopt;
}

QString MetricsPolicy::firstPass(EvalOptions &options, double needed) const
{
    if (!options.metrics)
        return u"off"_s;
    switch (mode) {
    case Mode::Always: return {};
    case Mode::Never: options.metrics = false; return u"off"_s;
    case Mode::WhenTheyPay: options.metricsMinSpeedup = std::isfinite(needed) && needed > 0 ? needed : 0; return {};
    }
    return {};
}

double MetricsPolicy::minSpeedupAmongBest(const QList<double> &others) const
{
    QList<double> finite;
    for (double s : others)
        if (std::isfinite(s))
            finite << s;
    if (best <= 0 || finite.size() < best)
        return 0;
    std::sort(finite.begin(), finite.end(), std::greater<>());
    return finite.at(best - 1);
}

namespace {

// The latest speedups of the session's other correct, usable variants: what a variant is ranked against.
QList<double> otherSpeedups(qint64 variantId, const Population &population)
{
    QList<double> others;
    for (const Variant &v : population.variants())
        if (v.id != variantId && v.origin != VariantOrigin::Reference && v.usableAsExemplar() && v.eval.speedup)
            others << *v.eval.speedup;
    return others;
}

} // namespace

double MetricsPolicy::minSpeedupAmongBest(qint64 variantId, const Population &population) const
{
    return minSpeedupAmongBest(otherSpeedups(variantId, population));
}

bool MetricsPolicy::amongBest(double speedup, const QList<double> &others) const
{
    if (!std::isfinite(speedup) || best <= 0)
        return false;
    int faster = 0;
    for (double s : others)
        if (std::isfinite(s) && s > speedup)
            ++faster;
    return faster < best;
}

bool MetricsPolicy::pays(qint64 variantId, double speedup, const Population &population) const
{
    return amongBest(speedup, otherSpeedups(variantId, population));
}

} // namespace kforge
