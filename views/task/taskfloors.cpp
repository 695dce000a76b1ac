#include "views/task/taskfloors.h"
#include "core/eval/speedoflight.h"

#include <algorithm>

namespace kforge {

std::optional<double> TaskFloors::floorMs() const
{
    if (computeMs && memoryMs)
        return std::max(*computeMs, *memoryMs);
    return computeMs ? computeMs : memoryMs;
}

bool TaskFloors::memoryLimited() const
{
    return memoryMs && (!computeMs || *memoryMs >= *computeMs);
}

TaskFloors taskFloors(double flops, double bytes, double peakGflops, double peakGbps)
{
    // The floors of the one speed-of-light computation (core/eval/speedoflight.h), without a time.
    const SpeedOfLight s = SpeedOfLight::compute(flops, bytes, peakGbps, peakGflops, std::nullopt);
    TaskFloors f;
    f.computeMs = s.flopFloorMs;
    f.memoryMs = s.byteFloorMs;
    return f;
}

} // namespace kforge
