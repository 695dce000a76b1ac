#pragma once
// The precision contract (issue 35, item 7): the judge also computes the reference in float64 and flags
// `precision_loss` when a candidate's error against float64 is far beyond what the task's dtype gives an honest
// implementation, even where the task's tolerance lets it pass (TF32 or bf16 inside an f32 task, FP8 inside an
// f16 one). The arithmetic only: the judge's PrecisionPass (precisionpass.h) brings the three outputs of one call; CI
// tests it on recorded outputs (tests/fixtures/precision/).
//
// Error of an output y against the exact x (float64): max_i |y_i - x_i| / (|x_i| + rms(x)) over the elements
// whose x_i is finite: relative where |x_i| is typical or large, relative to the output's scale where x_i is
// near zero (cancellation would make a plain relative error meaningless there, for the reference too).
//
// The rule, per floating output: lost when candidate error > max(kPrecisionRatio x reference error,
// precisionFloor(dtype)). docs/adversarial.md, "Precision contract", has the reasoning and the measured margins.
#include "core/runtime/task/dtype.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace kforge::runtime {

// How much worse than the reference's own error a candidate may be: an honest f32 order (a single sequential
// accumulator over 65536 values against torch's tree) measured 45x; TF32 and f16 products on K = 4096, 250x.
inline constexpr double kPrecisionRatio = 64;

// The error below which no candidate is flagged, whatever the reference's: 2^-14 for f32 (TF32 and f16 products
// keep 11 bits, errors from 2^-12 up; honest f32 orders stay under 2^-16), 2^-7 for f16 (FP8 e4m3 inputs keep 4
// bits), 2^-4 for bf16 (only gross losses: bf16 itself keeps 8 bits); 0 for dtypes the contract does not judge
// (f64: the reference is already float64; integers are exact).
double precisionFloor(Dtype dtype);

// `n` values of `dtype` (little-endian raw bytes as the GPU wrote them) as doubles.
std::vector<double> toDoubles(const void *data, Dtype dtype, std::size_t n);

// max |y - x| / (|x| + rms(x)) over the finite x; a non-finite y where x is finite counts as infinite error.
double maxRelativeError(const std::vector<double> &y, const std::vector<double> &exact);

struct PrecisionOutput {
    std::string name;
    Dtype dtype = Dtype::F32;
    std::size_t elements = 0;
    double candidateError = 0;
    double referenceError = 0;
    double threshold = 0; // max(kPrecisionRatio x referenceError, precisionFloor(dtype))
    bool lost = false;
};

struct PrecisionContract {
    bool available = false;
    std::string reason; // why not, when not available ("the reference is a compiled kernel ...")
    std::vector<PrecisionOutput> outputs;
    bool lost = false;   // any output lost
    std::string message; // with lost: "candidate max rel error 3.1e-3 vs float64, reference 2.4e-7: 13000x ..."

    // {"available", "reason"?, "lost", "candidate_error", "reference_error", "ratio", "threshold", "dtype",
    //  "message"?, "outputs": [{"name", "dtype", "elements", "candidate_error", "reference_error", "threshold",
    //  "lost"}]}; the top-level figures are the output nearest to (or farthest over) its threshold.
    nlohmann::ordered_json toJson() const;
    static PrecisionContract notAvailable(std::string reason);
};

// Judges one output (the three arrays of one call, as doubles) and adds it to `contract`; `available` becomes
// true with the first output. Outputs of a dtype precisionFloor() does not judge are skipped.
void judgeOutput(PrecisionContract &contract, const std::string &name, Dtype dtype, const std::vector<double> &exact,
                 const std::vector<double> &reference, const std::vector<double> &candidate);
// The message and `lost` from the outputs judged; call once after the last judgeOutput.
void concludePrecision(PrecisionContract &contract);

} // namespace kforge::runtime
