#pragma once
// Chooses which measured variants a round's prompt shows the model. Strategies: CUDA-L1's bucket sampling
// (correct variants grouped by speedup; distinct buckets drawn with probability proportional to
// exp((bucket mean - mean of bucket means) / tau); one variant uniformly within each), top-k, and
// most-different (greedy max-min Jaccard distance between the sources' line sets). The user's pins are always
// shown, exclusions never; variants that are not correct, or suspicious and not accepted, are never shown.
// Deterministic for a seed.
#include <QList>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <random>

namespace kforge {

class SessionStore;

enum class SamplingStrategy { Buckets, TopK, MostDifferent };
QString toString(SamplingStrategy s);
SamplingStrategy samplingStrategyFromString(const QString &s, bool *ok = nullptr);

struct SamplerCandidate {
    qint64 id = 0;
    double speedup = 0;
    bool pinned = false;
    bool eligible = true; // correct, not excluded, reviewed when suspicious
    QString source;       // needed by MostDifferent only
};

struct SamplerSettings {
    SamplingStrategy strategy = SamplingStrategy::Buckets;
    int count = 2;            // K: exemplars per prompt (pins beyond K are still all shown)
    double temperature = 1.0; // tau of the bucket probabilities, in units of speedup
    double bucketWidth = 0.5; // buckets are [2^(k*w), 2^((k+1)*w)) of speedup: 0.5 -> factors of sqrt(2)
};

struct SpeedupBucket {
    int index = 0;   // floor(log2(speedup) / width)
    double mean = 0; // mean speedup of the members
    QList<qint64> members;
};

class ExemplarSampler
{
public:
    explicit ExemplarSampler(quint64 seed = 1);
    void reseed(quint64 seed) { m_rng.seed(seed); }

    // The candidates of a session: every evaluated variant, eligible when Variant::usableAsExemplar().
    // Sources are read only when asked for (MostDifferent is the one strategy that needs them).
    static QList<SamplerCandidate> candidates(const SessionStore &store, bool withSources);

    QList<qint64> sample(const QList<SamplerCandidate> &candidates, const SamplerSettings &settings);

    // The parts, public for tests and the GUI's explanation of a draw.
    static QList<SpeedupBucket> buckets(const QList<SamplerCandidate> &candidates, double width);
    static QList<double> bucketProbabilities(const QList<SpeedupBucket> &buckets, double temperature);
    static double jaccardDistance(const QString &a, const QString &b);

private:
    double uniform(); // [0, 1)
    int uniformIndex(int n);
    int drawIndex(const QList<double> &weights);
    QList<qint64> drawBuckets(const QList<SamplerCandidate> &pool, int wanted, const SamplerSettings &s);
    QList<qint64> mostDifferent(const QList<SamplerCandidate> &pool, const QList<SamplerCandidate> &chosen, int wanted);

    std::mt19937_64 m_rng;
};

} // namespace kforge
