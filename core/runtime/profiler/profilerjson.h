#pragma once
// JSON for the worker protocol's `trace`, `metrics` and `roofline` fields (documented field by field in
// docs/profiling.md). NaN and missing values become null.

#include "core/runtime/profiler/cuptidiagnosis.h"
#include "core/runtime/profiler/metricscollector.h"
#include "core/runtime/profiler/occupancy.h"
#include "core/runtime/profiler/roofline.h"
#include "core/runtime/profiler/tracesummary.h"

#include <nlohmann/json.hpp>

namespace kforge::runtime::profiler {

void to_json(nlohmann::json &j, const CuptiDiagnosis &d);
void to_json(nlohmann::json &j, const Stats &s);
void to_json(nlohmann::json &j, const Occupancy &o);
void to_json(nlohmann::json &j, const KernelGroup &g);
void to_json(nlohmann::json &j, const MemoryGroup &g);
void to_json(nlohmann::json &j, const SideSummary &s);
void to_json(nlohmann::json &j, const TraceSummary &s);
void to_json(nlohmann::json &j, const KernelMetrics &k);
void to_json(nlohmann::json &j, const MetricsResult &m);
void to_json(nlohmann::json &j, const DevicePeaks &p);
void to_json(nlohmann::json &j, const RooflinePoint &p);
void to_json(nlohmann::json &j, const SpeedOfLight &s);
void to_json(nlohmann::json &j, const RooflineReport &r);

// A number, or null for NaN/inf (JSON has neither).
nlohmann::json jsonNumber(double v);

} // namespace kforge::runtime::profiler
