#pragma once
// Edge inputs (issue 19): how far past a task's declared input distributions a verification trial goes, and
// which trials the judge tries. Plain values, no GPU: TensorSet::generate (core/runtime/worker/tensorset.h)
// turns them into device data.
//
// - Declared: the task's distributions as task.json gives them.
// - Scaled(s): the spread of every floating input drawn from normal or uniform multiplied by s (normal: sigma
//   x s, mean kept; uniform: both bounds x s, so an input declared non-negative stays non-negative). Integer
//   dtypes, integers and constant distributions are never scaled: their bounds are what the task relies on
//   (indices, counts, flags). Values beyond the dtype's largest finite value saturate to it.
// - Special(s): the declared distribution, with about 1 element in 32 (at positions drawn from the seed)
//   replaced by one of the dtype's special values the input admits:
//     floats from normal: 0, -0, +-smallest normal, +-smallest denormal, +-(largest finite / s);
//     floats from uniform: those of the declared sign only (low >= 0: no negative value and no -0, low > 0:
//       no zero either; high <= 0 likewise), so an input declared positive stays positive;
//     integers (any dtype) and integer dtypes from uniform: the bounds' extremes and 0 and -1 where they lie
//       inside the declared bounds, so an index input never goes out of range;
//     integer dtypes from normal (no declared bounds): the dtype's min, max, 0 and -1 (-1 not for u8);
//     constant inputs: none.
//
// The judge's rule for edge trials ("the reference decides"): run the reference on each trial of
// edgeTrials() in order; a trial whose reference output has NaN or Inf in an output where the declared trials
// had none is beyond the task's domain and is skipped (edgeTrialBeyondDomain). The others are compared
// under the same rules as the declared trials (NaN matches NaN, an infinity the same infinity); a candidate
// that fails one while passing the declared trials gets `unstable_numerics`.
#include "core/runtime/task/taskspec.h"

#include <string>
#include <vector>

namespace kforge::runtime {

enum class InputRange { Declared, Scaled, Special };

struct EdgeTrial {
    InputRange range = InputRange::Declared;
    double scale = 1;
    std::string label() const; // "scaled x16", "special values (max/2)"
    friend bool operator==(const EdgeTrial &, const EdgeTrial &) = default;
};

// The edge trials worth running for the task, in order: scaled x16, x256, x4096 (when an input can be
// scaled), then special values with +-max/2 (when an input admits any). Empty for a task whose inputs admit
// neither (only integers or constants).
std::vector<EdgeTrial> edgeTrials(const TaskSpec &task);

// The distribution input `t` is drawn from in `range` (Scaled: the spread x scale; otherwise as declared).
InitSpec rangedInit(const TensorSpec &t, InputRange range, double scale);

// The special values mixed into input `t` in `range` (empty unless Special), as doubles that convert exactly
// (or saturate) to t's dtype; -0.0 is kept as such. At most kMaxSpecialValues.
inline constexpr int kMaxSpecialValues = 8;
std::vector<double> specialValues(const TensorSpec &t, InputRange range, double scale);

// The dtype's largest finite value (integers: the largest value), smallest positive normal and smallest
// positive denormal (0 for integers); lowest value (integers: min).
double dtypeMax(Dtype t);
double dtypeLowest(Dtype t);
double dtypeMinNormal(Dtype t);
double dtypeDenormMin(Dtype t);

// NaN and Inf counts of one output of a reference run.
struct NonFinite {
    unsigned long long nan = 0;
    unsigned long long inf = 0;
};
// The judge's rule above: true when some output has NaN or Inf in the edge trial's reference output but had
// none in the declared trials' (both vectors: one entry per output, in the task's order).
bool edgeTrialBeyondDomain(const std::vector<NonFinite> &declared, const std::vector<NonFinite> &edge);

} // namespace kforge::runtime
