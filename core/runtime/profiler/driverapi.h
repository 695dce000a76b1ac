#pragma once
// The few CUDA driver calls the profiler makes, reached through cudart's entry-point table: the profiler library
// does not link libcuda, so a binary that uses it still starts (and reports "no device") where no NVIDIA driver
// is installed.
#include <cuda.h>

namespace kforge::runtime::profiler {

// cuCtxGetCurrent; CUDA_ERROR_NOT_FOUND where the entry point cannot be had.
CUresult currentContext(CUcontext *ctx);

} // namespace kforge::runtime::profiler
