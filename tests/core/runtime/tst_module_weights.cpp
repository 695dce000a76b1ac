// The weights a torch task's modules are judged with (core/runtime/worker/moduleweights.h, issue 34 item 4):
// every floating entry of a LayerNorm / BatchNorm / Linear state moves away from its initial values (so code
// that ignores a parameter is caught), positive ones stay positive, random ones keep their scale, integer
// entries stay, and the same seed gives the same values.
#include "core/runtime/worker/moduleweights.h"
#include "tests/core/runtime/check.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace kforge::runtime;

namespace {

std::vector<StateEntry> batchNormAndLinear()
{
    std::mt19937_64 g(3);
    std::uniform_real_distribution<double> u(-0.1, 0.1);
    std::vector<double> linear(64 * 32);
    for (double &x : linear)
        x = u(g);
    return {{"norm.weight", Dtype::F32, std::vector<double>(32, 1.0)},
            {"norm.bias", Dtype::F32, std::vector<double>(32, 0.0)},
            {"norm.running_mean", Dtype::F32, std::vector<double>(32, 0.0)},
            {"norm.running_var", Dtype::F32, std::vector<double>(32, 1.0)},
            {"norm.num_batches_tracked", Dtype::I64, {0.0}},
            {"linear.weight", Dtype::BF16, linear},
            {"scale", Dtype::F16, std::vector<double>{0.5, 1.5, 2.5, 3.5}}};
}

} // namespace

int main()
{
    const std::vector<StateEntry> initial = batchNormAndLinear();
    std::vector<StateEntry> moved = initial;
    const std::vector<WeightMove> report = moveWeights(moved, 42);
    KF_CHECK(report.size() == initial.size());
    const auto rule = [&](std::size_t i) { return report[i].rule; };
    KF_CHECK(rule(0) == "lognormal" && rule(1) == "normal" && rule(2) == "normal" && rule(3) == "lognormal");
    KF_CHECK(rule(4) == "kept" && rule(5) == "jitter" && rule(6) == "lognormal");
    for (std::size_t i = 0; i < initial.size(); ++i) {
        if (rule(i) == "kept") {
            KF_CHECK(moved[i].values == initial[i].values);
            continue;
        }
        std::size_t same = 0;
        for (std::size_t k = 0; k < moved[i].values.size(); ++k)
            same += moved[i].values[k] == initial[i].values[k] ? 1 : 0;
        KF_CHECK_MSG(same == 0, initial[i].name + ": " + std::to_string(same) + " elements kept their value");
    }
    // Norm weights and running variances stay positive and spread around 1: LayerNorm without its affine or
    // BatchNorm folded with (0, 1) no longer computes the reference's outputs.
    for (std::size_t i : {std::size_t{0}, std::size_t{3}, std::size_t{6}}) {
        KF_CHECK(std::all_of(moved[i].values.begin(), moved[i].values.end(), [](double x) { return x > 0; }));
        KF_CHECK_MSG(report[i].sdAfter > 0.1, initial[i].name + " sd " + std::to_string(report[i].sdAfter));
    }
    KF_CHECK(report[1].sdAfter > 0.2 && std::abs(report[1].meanAfter) < 0.5);
    // A random initialisation keeps its scale.
    KF_CHECK_MSG(report[5].sdAfter > 0.8 * report[5].sdBefore && report[5].sdAfter < 1.5 * report[5].sdBefore,
                 std::to_string(report[5].sdBefore) + " -> " + std::to_string(report[5].sdAfter));

    // Reproducible from the seed; another seed moves them elsewhere.
    std::vector<StateEntry> again = initial, other = initial;
    moveWeights(again, 42);
    moveWeights(other, 43);
    for (std::size_t i = 0; i < initial.size(); ++i) {
        KF_CHECK(again[i].values == moved[i].values);
        if (rule(i) != "kept")
            KF_CHECK(other[i].values != moved[i].values);
    }
    const nlohmann::ordered_json j = weightsReport(report, 42);
    KF_CHECK(j["seed"] == 42 && j["entries"].size() == initial.size() && j["entries"][3]["rule"] == "lognormal"
             && j["entries"][3]["before"]["mean"] == 1.0);
    return kforge::runtime::test::finish("tst_module_weights");
}
