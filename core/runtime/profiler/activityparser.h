#pragma once
// Reads one completed CUPTI activity buffer into TraceRecords. Kept apart from the tracer so tests can
// feed it synthetic buffers (CUpti_ActivityKernel10, Memcpy6, Memset4, API, ExternalCorrelation).

#include "core/runtime/profiler/tracerecords.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace kforge::runtime::profiler {

// Walks the records with cuptiActivityGetNextRecord (which needs libcupti but no GPU) and appends what
// KForge uses to `out`. Returns the number of records read.
size_t parseActivityBuffer(uint8_t *buffer, size_t validSize, TraceRecords &out);

// abi::__cxa_demangle, or the input unchanged when it is not a mangled C++ name (extern "C" kernels).
std::string demangle(const std::string &mangled);

} // namespace kforge::runtime::profiler
