#pragma once
// The weights a torch task's modules are judged with (issue 34, item 4). A problem's Model is built with its
// initialisation, where every norm weight is 1, every norm bias 0, every running mean 0 and running variance 1:
// code that ignores a parameter (LayerNorm without its affine, BatchNorm folded with the construction
// statistics) computes the same outputs there. So the judge builds the reference, takes its state (the module
// host's "state" export), moves every floating entry away from its initial values with a seed of its own, and
// loads the same values into both sides. Integer entries (num_batches_tracked) keep their values.
//
// The rules, per entry, on its initial values w (z standard normal, one per element):
//   constant c != 0   lognormal   c * exp(0.4 z)             norm weights, running variances: stay of c's sign
//   constant 0        normal      0.5 z                       biases, running means
//   all positive      lognormal   w * exp(0.25 z)            a variance that is not constant: stays positive
//   otherwise         jitter      w * (1 + 0.25 z) + 0.25 sd z2   random initialisations: the scale kept
// so every element moves, a positive entry stays positive, and the scale of a random one stays (sd: its
// standard deviation).
#include "core/runtime/task/dtype.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kforge::runtime {

struct StateEntry {
    std::string name; // as in the module's state_dict ("norm.running_var")
    Dtype dtype = Dtype::F32;
    std::vector<double> values; // in, then out (host memory; the caller converts from and to the dtype)
};

struct WeightMove {
    std::string name;
    std::string rule; // lognormal | normal | jitter | kept (an integer entry, or an empty one)
    double meanBefore = 0, sdBefore = 0, meanAfter = 0, sdAfter = 0;
};

// Moves the floating entries' values in place, reproducibly from `seed` (entry i draws from its own stream).
std::vector<WeightMove> moveWeights(std::vector<StateEntry> &entries, uint64_t seed);

// {"seed": S, "entries": [{"name", "rule", "before": {"mean", "sd"}, "after": {...}}]} for the result.
nlohmann::ordered_json weightsReport(const std::vector<WeightMove> &moves, uint64_t seed);

} // namespace kforge::runtime
