#pragma once
// Metrics when they pay (issue 16): the hardware-metrics pass (kernel replay, a second or more per candidate)
// runs where someone will look at it, not for every candidate of a round. The worker keeps the reference's
// metrics once per worker process already; this decides for candidates. WhenTheyPay measures a round's
// candidate without the pass first, and only a correct one that lands among the session's `best` fastest
// correct variants (the ones exemplar draws lead with and the panels compare) is measured again with it, as the
// deep check is. Whatever is skipped says so (EvalResult::metricsSkipped), never as zeros. A re-run, a manual
// variant, `kforge-cli eval` and Profile ask for the pass explicitly and get it.
#include <QList>
#include <QString>
#include <optional>

namespace kforge {

struct EvalOptions;
class Population;

struct MetricsPolicy {
    enum class Mode { Always, WhenTheyPay, Never };
    Mode mode = Mode::Always;
    int best = 3; // WhenTheyPay: a correct variant among this many fastest correct variants of the session

    static QString toString(Mode mode); // "always", "when-they-pay", "never"
    static std::optional<Mode> modeFromString(const QString &s);

    // Sets options.metrics (and EvalResult's skip reason, returned) for a round candidate's first evaluation:
    // Always leaves the options; Never turns the pass off and returns why ("off"); WhenTheyPay asks for the
    // pass with options.metricsMinSpeedup = `needed` (minSpeedupAmongBest), so the worker runs it after timing
    // only for a candidate that lands among the best, in the same evaluation, and says "not_among_best" in its
    // result otherwise. Empty when the pass may run. Options that ask for no pass stay so ("off").
    QString firstPass(EvalOptions &options, double needed = 0) const;
    // The speedup a variant needs to be among the `best` fastest beside `others`: the best-th fastest of them
    // (a tie is not faster), 0 when there are fewer than `best`.
    double minSpeedupAmongBest(const QList<double> &others) const;
    // The same over the session: the other correct, usable variants of `population` (as pays()).
    double minSpeedupAmongBest(qint64 variantId, const Population &population) const;
    // WhenTheyPay: whether a correct result of `speedup` for variant `variantId` is among the best, counting
    // the other correct, usable variants of `population` (their latest speedups; the variant itself left out).
    bool pays(qint64 variantId, double speedup, const Population &population) const;
    // The same from the others' speedups: fewer than `best` of them are faster.
    bool amongBest(double speedup, const QList<double> &others) const;
};

} // namespace kforge
