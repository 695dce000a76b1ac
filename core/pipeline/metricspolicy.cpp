#include "core/pipeline/metricspolicy.h"

#include "core/eval/evaloptions.h"
#include "core/session/population.h"

#include <cmath>

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

QString MetricsPolicy::firstPass(EvalOptions &options) const
{
    if (!options.metrics)
        return u"off"_s;
    switch (mode) {
    case Mode::Always: return {};
    case Mode::Never: options.metrics = false; return u"off"_s;
    case Mode::WhenTheyPay: options.metrics = false; return u"not_among_best"_s;
    }
    return {};
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
    QList<double> others;
    for (const Variant &v : population.variants())
        if (v.id != variantId && v.origin != VariantOrigin::Reference && v.usableAsExemplar() && v.eval.speedup)
            others << *v.eval.speedup;
    return amongBest(speedup, others);
}

} // namespace kforge
