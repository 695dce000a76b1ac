#include "core/runtime/worker/moduleweights.h"

#include "core/runtime/worker/seeds.h"

#include <cmath>
#include <random>

namespace kforge::runtime {
namespace {

struct Moments {
    double mean = 0, sd = 0;
};

Moments momentsOf(const std::vector<double> &v)
{
    Moments m;
    if (v.empty())
        return m;
    for (double x : v)
        m.mean += x;
    m.mean /= double(v.size());
    double var = 0;
    for (double x : v)
        var += (x - m.mean) * (x - m.mean);
    m.sd = std::sqrt(var / double(v.size()));
    return m;
}

// The stream of entry i: a family of its own beside those of seeds.h.
constexpr uint64_t weightStream(uint64_t i)
{
    return (uint64_t{9} << 32) | (i & 0xffffffffu);
}

} // namespace

std::vector<WeightMove> moveWeights(std::vector<StateEntry> &entries, uint64_t seed)
{
    std::vector<WeightMove> moves;
    moves.reserve(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
        StateEntry &e = entries[i];
        WeightMove m;
        m.name = e.name;
        const Moments before = momentsOf(e.values);
        m.meanBefore = before.mean;
        m.sdBefore = before.sd;
        if (!isFloating(e.dtype) || e.values.empty()) {
            m.rule = "kept";
            m.meanAfter = before.mean;
            m.sdAfter = before.sd;
            moves.push_back(m);
            continue;
        }
        std::mt19937_64 random(deriveSeed(seed, weightStream(i)));
        std::normal_distribution<double> z;
        bool constant = true, positive = true;
        for (double x : e.values) {
            constant = constant && x == e.values.front();
            positive = positive && x > 0;
        }
        if (constant && e.values.front() != 0) {
            m.rule = "lognormal";
            for (double &x : e.values)
                x *= std::exp(0.4 * z(random));
        } else if (constant) {
            m.rule = "normal";
            for (double &x : e.values)
                x = 0.5 * z(random);
        } else if (positive) {
            m.rule = "lognormal";
            for (double &x : e.values)
                x *= std::exp(0.25 * z(random));
        } else {
            m.rule = "jitter";
            for (double &x : e.values) {
                const double a = z(random), b = z(random);
                x = x * (1 + 0.25 * a) + 0.25 * before.sd * b;
            }
        }
        const Moments after = momentsOf(e.values);
        m.meanAfter = after.mean;
        m.sdAfter = after.sd;
        moves.push_back(m);
    }
    return moves;
}

nlohmann::ordered_json weightsReport(const std::vector<WeightMove> &moves, uint64_t seed)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    const auto moments = [](double mean, double sd) { return nlohmann::ordered_json{{"mean", mean}, {"sd", sd}}; };
    for (const WeightMove &m : moves)
        list.push_back({{"name", m.name},
                        {"rule", m.rule},
                        {"before", moments(m.meanBefore, m.sdBefore)},
                        {"after", moments(m.meanAfter, m.sdAfter)}});
    return {{"seed", seed}, {"entries", list}};
}

} // namespace kforge::runtime
