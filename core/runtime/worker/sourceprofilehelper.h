#pragma once
// The source-level pass. In the candidate host (sampleLibrary: the host's own library on the judge's
// buffers), and as `kforge-worker --source-profile REQUEST.json`, a stand-alone run for tools and tests that
// loads the two libraries, makes the inputs from the seed, samples the candidate (and the reference) and writes
// the profile's JSON to a file. CUPTI's PC sampling delivered samples reliably only on the first enable in a
// process (H200, CUPTI 13.0), which is why each pass gets a fresh process.
#include "core/runtime/profiler/sourceprofile.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>

namespace kforge::runtime {

struct SourceProfileRequest {
    nlohmann::ordered_json task; // the task.json object
    std::string reference;       // library paths
    std::string candidate;
    uint64_t seed = 1;
    int device = 0;
    int period = 0;
    bool sampleReference = false;
    std::string output; // where the helper writes the profile's JSON

    nlohmann::ordered_json toJson() const;
    static bool fromJson(const nlohmann::ordered_json &j, SourceProfileRequest &out, std::string &error);
};

// The helper's main: reads the request file, writes the profile; exit status 0 when a profile (of any
// status) was written, 1 otherwise (the reason on stderr).
int runSourceProfileHelper(const std::string &requestFile);

// The candidate host's pass over its own library: one untimed launch, then PC sampling of `launch` (one
// run, device synchronized; may throw), lines folded through nvdisasm's inline chains. `side`: candidate |
// reference.
profiler::SourceProfile sampleLibrary(const std::string &side, const std::function<void()> &launch,
                                      const std::string &library, int period);

} // namespace kforge::runtime
