#pragma once
// The task's speed-of-light floors on a device, as the Task panel shows them before anything is timed: FLOP over
// the measured FP32 FMA rate, bytes over the measured copy bandwidth, the larger one is the floor. Computed by
// core/eval/speedoflight (SpeedOfLight::compute), the one definition the worker and every panel share.
#include <optional>

namespace kforge {

struct TaskFloors {
    std::optional<double> computeMs; // flops / peak FLOP rate; empty without a FLOP formula or peak
    std::optional<double> memoryMs;  // bytes / peak bandwidth; empty without a byte formula or peak
    // The larger of the two, and which one it is; empty when neither is known.
    std::optional<double> floorMs() const;
    bool memoryLimited() const;
};

// flops or bytes <= 0: the task has no such formula. peaks <= 0: not measured.
TaskFloors taskFloors(double flops, double bytes, double peakGflops, double peakGbps);

} // namespace kforge
