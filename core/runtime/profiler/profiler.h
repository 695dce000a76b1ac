#pragma once
// kforge_profiler: what ran, for how long, and why — CUPTI tracing, hardware metrics and roofline for
// kforge-worker (Qt-free). Field-by-field JSON reference: docs/profiling.md.
//
// Integration into the worker's `evaluate` (CMake: target_link_libraries(kforge-worker PRIVATE
// kforge_profiler); kforge_profiler_link_setup(kforge-worker) for the CUPTI rpath rules):
//
//  1. At worker start, before the first CUDA call if possible:
//       profiler::ActivityTracer tracer;           // one per process
//       profiler::CuptiDiagnosis traceProblem = tracer.start();   // ok() or why tracing is off
//       profiler::MetricsCollector metrics;        // lazy: touches the GPU on first collect()
//     and once the device is known: auto limits = profiler::queryDeviceLimits(device);
//  2. Every timed run (reference and candidate alike; the L2 flush stays outside the region):
//       tracer.beginRegion(profiler::RegionKind::Candidate, run, profiler::ActivityTracer::streamId(stream));
//       cudaEventRecord(start, stream); entry(..., stream); cudaDeviceSynchronize(); cudaEventRecord(end, stream);
//       cudaEventSynchronize(end);  float ms; cudaEventElapsedTime(&ms, start, end);
//       tracer.endRegion(ms);      // after the end event completed: its timestamp is the late-work deadline
//     (beginRegion/endRegion are no-ops when the tracer is not active.)
//  3. After timing: cudaDeviceSynchronize(); tracer.flush();
//       profiler::TraceSummary trace = traceProblem.ok()
//           ? profiler::summarizeTrace(tracer.takeRecords(), tracer.takeRegions(), {limits ? &*limits : nullptr})
//           : profiler::TraceSummary::unavailable(traceProblem);
//       result.flags += trace.candidateFlags();     // "side_stream_work", "late_work"
//  4. Metrics (only if options.metrics), never while timing:
//       profiler::MetricsResult m = metrics.collect([&] { entry(..., stream); }, options.metric_names);
//     (replays are tagged as the metrics pass and never counted as launches; !m.available carries the reason)
//  5. Roofline with the measured peaks and the task's formulas (pass -1 when a formula is absent):
//       auto roof = profiler::buildRoofline({peak_copy_gbps, peak_fma_gflops}, &m, flops, bytes, candMedianMs);
//       if (roof.task && roof.task->belowSpeedOfLight) result.flags += "below_speed_of_light";
//  6. JSON (include profilerjson.h): result["trace"] = trace;
//       result["metrics"] = {{"candidate", m}, {"reference", mRef}}; result["roofline"] = {{"candidate", roof}, ...};

#include "core/runtime/profiler/activityparser.h"
#include "core/runtime/profiler/activitytracer.h"
#include "core/runtime/profiler/cuptidiagnosis.h"
#include "core/runtime/profiler/metricscollector.h"
#include "core/runtime/profiler/occupancy.h"
#include "core/runtime/profiler/profilerjson.h"
#include "core/runtime/profiler/region.h"
#include "core/runtime/profiler/roofline.h"
#include "core/runtime/profiler/tracerecords.h"
#include "core/runtime/profiler/tracesummary.h"
