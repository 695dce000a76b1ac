#include "views/task/taskfloors.h"

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
    TaskFloors f;
    // GFLOP/s = 1e6 FLOP per ms; GB/s = 1e6 bytes per ms.
    if (flops > 0 && peakGflops > 0)
        f.computeMs = flops / (peakGflops * 1e6);
    if (bytes > 0 && peakGbps > 0)
        f.memoryMs = bytes / (peakGbps * 1e6);
    return f;
}

} // namespace kforge
