#include "core/optimizer/exemplarsampler.h"
#include "core/session/sessionstore.h"

#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <map>

namespace kforge {

QString toString(SamplingStrategy s)
{
    switch (s) {
    case SamplingStrategy::Buckets: return QStringLiteral("buckets");
    case SamplingStrategy::TopK: return QStringLiteral("top-k");
    case SamplingStrategy::MostDifferent: return QStringLiteral("most-different");
    }
    return {};
}

SamplingStrategy samplingStrategyFromString(const QString &s, bool *ok)
{
    for (auto v : {SamplingStrategy::Buckets, SamplingStrategy::TopK, SamplingStrategy::MostDifferent})
        if (s == toString(v)) {
            if (ok)
                *ok = true;
            return v;
        }
    if (ok)
        *ok = false;
    return SamplingStrategy::Buckets;
}

ExemplarSampler::ExemplarSampler(quint64 seed)
    : m_rng(seed)
{
}

QList<SamplerCandidate> ExemplarSampler::candidates(const SessionStore &store, bool withSources)
{
    QList<SamplerCandidate> out;
    out.reserve(store.population().size());
    for (const auto &v : store.population().variants()) {
        if (!v.hasEvaluation())
            continue;
        SamplerCandidate c;
        c.id = v.id;
        c.speedup = v.eval.speedup.value_or(0);
        c.pinned = v.pinned;
        c.eligible = v.usableAsExemplar() && v.eval.speedup.has_value();
        if (withSources && c.eligible)
            c.source = store.variants().source(v.id);
        out << c;
    }
    return out;
}

double ExemplarSampler::uniform()
{
    // 53 random bits: the same numbers on every platform for a seed (std distributions are not portable).
    return double(m_rng() >> 11) * 0x1.0p-53;
}

int ExemplarSampler::uniformIndex(int n)
{
    return std::min(n - 1, int(uniform() * n));
}

int ExemplarSampler::drawIndex(const QList<double> &weights)
{
    double total = 0;
    for (double w : weights)
        total += w;
    double x = uniform() * total;
    for (int i = 0; i < weights.size(); ++i) {
        if (weights[i] <= 0)
            continue;
        if (x < weights[i])
            return i;
        x -= weights[i];
    }
    for (int i = int(weights.size()) - 1; i >= 0; --i) // rounding left x at the very end
        if (weights[i] > 0)
            return i;
    return -1;
}

QList<SpeedupBucket> ExemplarSampler::buckets(const QList<SamplerCandidate> &candidates, double width)
{
    std::map<int, SpeedupBucket> byIndex;
    std::map<int, double> sums;
    for (const auto &c : candidates) {
        if (!c.eligible || !(c.speedup > 0))
            continue;
        const int index = int(std::floor(std::log2(c.speedup) / width));
        auto &b = byIndex[index];
        b.index = index;
        b.members << c.id;
        sums[index] += c.speedup;
    }
    QList<SpeedupBucket> out;
    for (auto &[index, b] : byIndex) {
        b.mean = sums[index] / double(b.members.size());
        out << b;
    }
    return out;
}

QList<double> ExemplarSampler::bucketProbabilities(const QList<SpeedupBucket> &buckets, double temperature)
{
    QList<double> p;
    if (buckets.isEmpty())
        return p;
    double meanOfMeans = 0;
    for (const auto &b : buckets)
        meanOfMeans += b.mean;
    meanOfMeans /= double(buckets.size());
    const double tau = temperature > 0 ? temperature : 1.0;
    // Subtracting the largest exponent keeps exp() finite; the normalised result is the same.
    double top = -INFINITY;
    for (const auto &b : buckets)
        top = std::max(top, (b.mean - meanOfMeans) / tau);
    double total = 0;
    for (const auto &b : buckets) {
        p << std::exp((b.mean - meanOfMeans) / tau - top);
        total += p.back();
    }
    for (double &x : p)
        x /= total;
    return p;
}

double ExemplarSampler::jaccardDistance(const QString &a, const QString &b)
{
    // Lines with whitespace collapsed: formatting changes do not count as different code.
    static const QRegularExpression spaces(QStringLiteral("\\s+"));
    auto lines = [](const QString &s) {
        QSet<QString> set;
        for (const QString &line : s.split(QLatin1Char('\n'))) {
            const QString norm = QString(line).replace(spaces, QStringLiteral(" ")).trimmed();
            if (!norm.isEmpty() && norm != QLatin1String("{") && norm != QLatin1String("}"))
                set.insert(norm);
        }
        return set;
    };
    const QSet<QString> la = lines(a), lb = lines(b);
    if (la.isEmpty() && lb.isEmpty())
        return 0;
    const qsizetype common = QSet<QString>(la).intersect(lb).size();
    const qsizetype all = la.size() + lb.size() - common;
    return 1.0 - double(common) / double(all);
}

QList<qint64> ExemplarSampler::drawBuckets(const QList<SamplerCandidate> &pool, int wanted, const SamplerSettings &s)
{
    QList<qint64> out;
    QList<SpeedupBucket> bs = buckets(pool, s.bucketWidth > 0 ? s.bucketWidth : 0.5);
    QList<double> p = bucketProbabilities(bs, s.temperature);
    // Distinct buckets, drawn one after another without replacement.
    while (out.size() < wanted && !bs.isEmpty()) {
        const int i = drawIndex(p);
        if (i < 0)
            break;
        const auto &members = bs[i].members;
        out << members[uniformIndex(int(members.size()))];
        bs.removeAt(i);
        p.removeAt(i);
    }
    // Fewer buckets than wanted: the rest uniformly from what is left.
    QList<qint64> rest;
    for (const auto &c : pool)
        if (c.eligible && c.speedup > 0 && !out.contains(c.id))
            rest << c.id;
    while (out.size() < wanted && !rest.isEmpty())
        out << rest.takeAt(uniformIndex(int(rest.size())));
    return out;
}

QList<qint64> ExemplarSampler::mostDifferent(const QList<SamplerCandidate> &pool,
                                             const QList<SamplerCandidate> &chosenIn, int wanted)
{
    QList<SamplerCandidate> chosen = chosenIn;
    QList<SamplerCandidate> rest;
    for (const auto &c : pool)
        if (c.eligible)
            rest << c;
    // Fastest first: most-different is about variety around what already works best.
    std::stable_sort(rest.begin(), rest.end(), [](const auto &a, const auto &b) { return a.speedup > b.speedup; });
    QList<qint64> out;
    while (out.size() < wanted && !rest.isEmpty()) {
        int best = 0;
        if (!chosen.isEmpty()) {
            double bestDistance = -1;
            for (int i = 0; i < rest.size(); ++i) {
                double d = 2;
                for (const auto &c : std::as_const(chosen))
                    d = std::min(d, jaccardDistance(rest[i].source, c.source));
                if (d > bestDistance + 1e-12) {
                    bestDistance = d;
                    best = i;
                }
            }
        }
        out << rest[best].id;
        chosen << rest.takeAt(best);
    }
    return out;
}

QList<qint64> ExemplarSampler::sample(const QList<SamplerCandidate> &candidates, const SamplerSettings &settings)
{
    QList<qint64> out;
    QList<SamplerCandidate> pinned, pool;
    for (const auto &c : candidates) {
        if (c.pinned && c.eligible)
            pinned << c;
        else if (!c.pinned)
            pool << c;
    }
    for (const auto &c : std::as_const(pinned))
        out << c.id;
    const int wanted = std::max(0, settings.count - int(out.size()));
    if (wanted == 0)
        return out;
    switch (settings.strategy) {
    case SamplingStrategy::Buckets: out += drawBuckets(pool, wanted, settings); break;
    case SamplingStrategy::TopK: {
        QList<SamplerCandidate> sorted;
        for (const auto &c : std::as_const(pool))
            if (c.eligible)
                sorted << c;
        std::stable_sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) { return a.speedup > b.speedup; });
        for (int i = 0; i < wanted && i < sorted.size(); ++i)
            out << sorted[i].id;
        break;
    }
    case SamplingStrategy::MostDifferent: out += mostDifferent(pool, pinned, wanted); break;
    }
    return out;
}

} // namespace kforge
