#pragma once
// The source-level pass, in a fresh candidate host (sampleLibrary: the host's own library on the judge's
// buffers). CUPTI's PC sampling delivered samples reliably only on the first enable in a process (H200,
// CUPTI 13.0), which is why each pass gets a fresh host.
#include "core/runtime/profiler/sourcesamples.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>

namespace kforge::runtime {

// The candidate host's pass over its own library: one untimed launch, then PC sampling of `launch` (one
// run, device synchronized; may throw), lines folded through nvdisasm's inline chains. `side`: candidate |
// reference.
profiler::SourceProfile sampleLibrary(const std::string &side, const std::function<void()> &launch,
                                      const std::string &library, int period);

} // namespace kforge::runtime
