#pragma once
// The few kernels of the judge and the candidate host that are not about tensors: the judge's gate (holds
// its stream until the host has enqueued a whole batch) and the host's own markers around a traced call.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace kforge::runtime::host::gpu {

// Spins until *flag != 0 (a mapped host int) or `timeoutNs` of %globaltimer passed; on a timeout sets
// *timedOut = 1 (mapped host int too), so the judge knows the window was not held.
cudaError_t gate(const volatile int *flag, int *timedOut, unsigned long long timeoutNs, cudaStream_t stream);

// The judge's quiet probe (issue 35, item 1): one thread reads %globaltimer for `ns` and writes the largest step
// between two reads to out[0] (ns) and the time it ran to out[1]. Contexts of different processes do not run
// at once on the GPU: a step far above the timer's own is time the GPU gave to another context, whose work
// was there while the probe ran ("kforgeQuietProbe" in a trace).
cudaError_t quietProbe(unsigned long long ns, unsigned long long *out, cudaStream_t stream);

// The host's trace pass: spins `ns` (so the call is enqueued before the GPU reaches it) and an empty
// marker after the call. Their names ("kforgeHostDelay", "kforgeHostMarker") identify them in the trace.
cudaError_t delay(unsigned long long ns, cudaStream_t stream);
cudaError_t marker(cudaStream_t stream);
// Reads `bytes` (a multiple of 16) of `buffer`, which holds zeros: the host's L2 flush, leaving clean lines;
// a kernel, so the trace tells it apart from the candidate's own work ("kforgeHostFlush").
cudaError_t flush(void *buffer, std::size_t bytes, cudaStream_t stream);

// Before every call of a batch, inside the window: one load per 64 KiB of each of the call's tensors, so the
// host's context has the call's pages in its TLB before the call starts (every call of a batch has its own
// buffers, and a switch between the judge's and the host's contexts leaves the TLB cold), as a kernel
// running on buffers its process used before has them. The baseline's calls touch as many bytes, so the
// judge subtracts the touch with the crossing.
struct TouchList {
    static constexpr int kMax = 16;
    const void *data[kMax] = {};
    unsigned long long bytes[kMax] = {};
    int count = 0;
};
cudaError_t touch(const TouchList &list, cudaStream_t stream);
inline constexpr unsigned long long kTouchStride = 64 * 1024;

inline constexpr const char *kTouchName = "kforgeHostTouch";
inline constexpr const char *kDelayName = "kforgeHostDelay";
inline constexpr const char *kMarkerName = "kforgeHostMarker";
inline constexpr const char *kFlushName = "kforgeHostFlush";

} // namespace kforge::runtime::host::gpu
