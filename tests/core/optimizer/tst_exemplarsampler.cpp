// Exemplar sampling: CUDA-L1 bucket probabilities checked statistically against the formula, determinism for
// a seed, pins and exclusions, top-k, most-different, and eligibility read from a real session.
#include "core/optimizer/exemplarsampler.h"
#include "core/session/sessionstore.h"

#include <QHash>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace kforge;

namespace {

SamplerCandidate cand(qint64 id, double speedup, bool eligible = true, bool pinned = false)
{
    SamplerCandidate c;
    c.id = id;
    c.speedup = speedup;
    c.eligible = eligible;
    c.pinned = pinned;
    return c;
}

// Five buckets of width 0.5 (factors of sqrt 2) with 1 to 3 members each, plus ineligible variants that fall
// into them and must never be drawn.
QList<SamplerCandidate> population()
{
    return {
        cand(1, 1.0),         cand(2, 1.1),                       // bucket 0: [1, 1.414)  mean 1.05
        cand(3, 1.5),                                             // bucket 1: [1.414, 2)  mean 1.5
        cand(4, 2.1),         cand(5, 2.4),         cand(6, 2.7), // bucket 2: [2, 2.83)   mean 2.4
        cand(7, 3.0),         cand(8, 3.6),                       // bucket 3: [2.83, 4)   mean 3.3
        cand(9, 4.5),                                             // bucket 4: [4, 5.66)   mean 4.5
        cand(10, 2.2, false), cand(11, 4.4, false),               // wrong or unreviewed
    };
}

// The formula, written out independently of the sampler.
QList<double> expectedProbabilities(const QList<double> &means, double tau)
{
    double mean = 0;
    for (double m : means)
        mean += m;
    mean /= double(means.size());
    QList<double> p;
    double total = 0;
    for (double m : means) {
        p << std::exp((m - mean) / tau);
        total += p.back();
    }
    for (double &x : p)
        x /= total;
    return p;
}

// |observed - expected| within 5 standard deviations of a binomial count.
bool close(int count, int n, double p, QString *why)
{
    const double sigma = std::sqrt(n * p * (1 - p));
    const double diff = std::fabs(count - n * p);
    *why = QStringLiteral("observed %1 of %2, expected %3 (sigma %4)").arg(count).arg(n).arg(n * p).arg(sigma);
    return diff <= 5 * sigma + 1;
}

} // namespace

class TstExemplarSampler : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void bucketsFollowTheFormula()
    {
        const auto buckets = ExemplarSampler::buckets(population(), 0.5);
        QCOMPARE(buckets.size(), 5);
        const QList<QList<qint64>> members{{1, 2}, {3}, {4, 5, 6}, {7, 8}, {9}};
        const QList<double> means{1.05, 1.5, 2.4, 3.3, 4.5};
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(buckets[i].members, members[i]);
            QVERIFY(std::fabs(buckets[i].mean - means[i]) < 1e-12);
        }
        for (double tau : {0.5, 1.0, 4.0}) {
            const auto p = ExemplarSampler::bucketProbabilities(buckets, tau);
            const auto q = expectedProbabilities(means, tau);
            for (int i = 0; i < 5; ++i)
                QVERIFY(std::fabs(p[i] - q[i]) < 1e-12);
        }
        // Huge speedups do not overflow.
        const auto p = ExemplarSampler::bucketProbabilities({{0, 1.0, {1}}, {9, 5000.0, {2}}}, 1.0);
        QCOMPARE(p[1], 1.0);
        QVERIFY(p[0] >= 0 && p[0] < 1e-300 + 1e-12);
    }

    void bucketDrawsMatchTheFormula_data()
    {
        QTest::addColumn<double>("tau");
        QTest::newRow("tau 1") << 1.0;
        QTest::newRow("tau 3") << 3.0;
    }

    void bucketDrawsMatchTheFormula()
    {
        QFETCH(double, tau);
        const QList<SamplerCandidate> pop = population();
        const auto buckets = ExemplarSampler::buckets(pop, 0.5);
        const auto p = expectedProbabilities({1.05, 1.5, 2.4, 3.3, 4.5}, tau);
        QHash<qint64, int> bucketOf;
        for (int b = 0; b < buckets.size(); ++b)
            for (qint64 id : buckets[b].members)
                bucketOf[id] = b;

        ExemplarSampler sampler(12345);
        SamplerSettings s;
        s.temperature = tau;
        const int n = 40000;
        QList<int> first(5, 0);
        QHash<QPair<int, int>, int> pairs;
        QHash<qint64, int> picked;
        for (int i = 0; i < n; ++i) {
            const QList<qint64> draw = sampler.sample(pop, s);
            QCOMPARE(draw.size(), 2);
            QVERIFY(bucketOf.contains(draw[0]) && bucketOf.contains(draw[1])); // never an ineligible one
            const int b0 = bucketOf[draw[0]], b1 = bucketOf[draw[1]];
            QVERIFY(b0 != b1); // two distinct buckets
            ++first[b0];
            ++pairs[{std::min(b0, b1), std::max(b0, b1)}];
            ++picked[draw[0]];
            ++picked[draw[1]];
        }
        QString why;
        // The first bucket drawn: probability p_i.
        for (int b = 0; b < 5; ++b)
            QVERIFY2(close(first[b], n, p[b], &why), qPrintable(QStringLiteral("first bucket %1: ").arg(b) + why));
        // The unordered pair: p_i p_j / (1 - p_i) + p_j p_i / (1 - p_j).
        for (int i = 0; i < 5; ++i)
            for (int j = i + 1; j < 5; ++j) {
                const double q = p[i] * p[j] / (1 - p[i]) + p[j] * p[i] / (1 - p[j]);
                QVERIFY2(close(pairs.value({i, j}), n, q, &why),
                         qPrintable(QStringLiteral("pair %1,%2: ").arg(i).arg(j) + why));
            }
        // Within a bucket, uniform: each member about equally often.
        for (const auto &b : buckets) {
            int total = 0;
            for (qint64 id : b.members)
                total += picked.value(id);
            for (qint64 id : b.members)
                QVERIFY2(close(picked.value(id), total, 1.0 / double(b.members.size()), &why),
                         qPrintable(QStringLiteral("variant %1: ").arg(id) + why));
        }
    }

    void seedMakesItRepeatable()
    {
        SamplerSettings s;
        ExemplarSampler a(7), b(7), c(8);
        QList<qint64> sa, sb, sc;
        for (int i = 0; i < 50; ++i) {
            sa += a.sample(population(), s);
            sb += b.sample(population(), s);
            sc += c.sample(population(), s);
        }
        QCOMPARE(sa, sb);
        QVERIFY(sa != sc);
        a.reseed(7);
        QCOMPARE(a.sample(population(), s), sa.mid(0, 2));
    }

    void pinsAndExclusionsOverride()
    {
        ExemplarSampler sampler(1);
        SamplerSettings s;
        QList<SamplerCandidate> pop = population();
        pop[0].pinned = true; // the slowest: the sampler would rarely pick it
        pop[9].pinned = true; // pinned but ineligible (wrong or unreviewed): still never shown
        for (int i = 0; i < 500; ++i) {
            const QList<qint64> draw = sampler.sample(pop, s);
            QCOMPARE(draw.size(), 2);
            QCOMPARE(draw[0], 1);
            QVERIFY(draw[1] != 1 && draw[1] != 10 && draw[1] != 11);
        }
        // More pins than K: exactly the pins.
        for (auto &c : pop)
            c.pinned = c.id <= 3;
        QCOMPARE(sampler.sample(pop, s), (QList<qint64>{1, 2, 3}));
        // Nothing eligible: nothing.
        QVERIFY(sampler.sample({cand(1, 2.0, false), cand(2, 3.0, false)}, s).isEmpty());
    }

    void fewerBucketsThanSlots()
    {
        ExemplarSampler sampler(3);
        SamplerSettings s;
        s.count = 3;
        // One bucket of three: all three come back, each once.
        QList<qint64> draw = sampler.sample({cand(1, 1.0), cand(2, 1.1), cand(3, 1.2)}, s);
        std::sort(draw.begin(), draw.end());
        QCOMPARE(draw, (QList<qint64>{1, 2, 3}));
        // Only the reference so far (the first round): one exemplar.
        s.count = 2;
        QCOMPARE(sampler.sample({cand(1, 1.0)}, s), QList<qint64>{1});
    }

    void topK()
    {
        ExemplarSampler sampler(1);
        SamplerSettings s;
        s.strategy = SamplingStrategy::TopK;
        s.count = 3;
        QCOMPARE(sampler.sample(population(), s), (QList<qint64>{9, 8, 7}));
    }

    void mostDifferent()
    {
        const QString base = QStringLiteral("#include \"kforge/kernel.h\"\nKF_ENTRY(i, ni, o, no, p, s)\n{\n  return 0;\n}\n");
        QList<SamplerCandidate> pop{cand(1, 5.0), cand(2, 4.0), cand(3, 3.0), cand(4, 2.0)};
        pop[0].source = base + QStringLiteral("tile 32\nfloat4 loads\nshared memory\n");
        pop[1].source = base + QStringLiteral("tile   32\nfloat4 loads\nshared memory\n"); // a reformatted copy of 1
        pop[2].source = base + QStringLiteral("tile 64\nwarp shuffle\n");
        pop[3].source = QStringLiteral("cublasSgemm\nsomething else entirely\n");
        QCOMPARE(ExemplarSampler::jaccardDistance(pop[0].source, pop[1].source), 0.0);
        QCOMPARE(ExemplarSampler::jaccardDistance(pop[0].source, pop[3].source), 1.0);
        ExemplarSampler sampler(1);
        SamplerSettings s;
        s.strategy = SamplingStrategy::MostDifferent;
        s.count = 3;
        // The fastest, then the one least like it, then the one least like both; never the copy.
        QCOMPARE(sampler.sample(pop, s), (QList<qint64>{1, 4, 3}));
    }

    void candidatesComeFromTheSession()
    {
        QTemporaryDir dir;
        SessionStore store;
        QVERIFY(store.create(dir.filePath(QStringLiteral("s.kforge")),
                             QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/rounds/task_diag")));
        const qint64 ref = store.population().reference()->id;
        auto add = [&](const QString &verdict, double speedup) {
            Variant v;
            v.parentIds = {ref};
            const qint64 id = store.variants().add(v, {QStringLiteral("// %1").arg(speedup), {}, {}});
            QJsonObject timing{{QStringLiteral("speedup"), speedup}};
            store.evaluations().add(Evaluation::fromResult(id, QJsonObject{{QStringLiteral("verdict"), verdict},
                                                                           {QStringLiteral("timing"), timing}}));
            return id;
        };
        store.evaluations().add(Evaluation::fromResult(
            ref, QJsonObject{{QStringLiteral("verdict"), QStringLiteral("correct")},
                             {QStringLiteral("timing"), QJsonObject{{QStringLiteral("speedup"), 1.0}}}}));
        const qint64 good = add(QStringLiteral("correct"), 3.0);
        const qint64 wrong = add(QStringLiteral("incorrect"), 0);
        const qint64 suspicious = add(QStringLiteral("correct"), 40.0);
        const qint64 excluded = add(QStringLiteral("correct"), 2.0);
        store.variants().setExcluded(excluded, true);
        Variant unevaluated;
        store.variants().add(unevaluated, {QStringLiteral("//"), {}, {}});

        QList<SamplerCandidate> c = ExemplarSampler::candidates(store, true);
        QCOMPARE(c.size(), 5);
        QHash<qint64, SamplerCandidate> byId;
        for (const auto &x : c)
            byId[x.id] = x;
        QVERIFY(byId[ref].eligible && byId[good].eligible);
        QVERIFY(!byId[wrong].eligible && !byId[suspicious].eligible && !byId[excluded].eligible);
        QCOMPARE(byId[good].source, QStringLiteral("// 3"));
        QVERIFY(byId[wrong].source.isEmpty());
        store.variants().setAccepted(suspicious, true);
        QVERIFY(ExemplarSampler::candidates(store, false).at(3).eligible);
        SamplerSettings s;
        s.strategy = SamplingStrategy::TopK;
        ExemplarSampler sampler;
        QCOMPARE(sampler.sample(ExemplarSampler::candidates(store, false), s), (QList<qint64>{suspicious, good}));
    }
};

QTEST_GUILESS_MAIN(TstExemplarSampler)
#include "tst_exemplarsampler.moc"
