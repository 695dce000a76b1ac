#pragma once
// The probes behind the worker's floors (floors.h, DevicePeaks): a read-only streaming sweep (the read
// bandwidth a reduction can reach) and tensor-core mma.sync loops per dtype (f16, bf16, tf32 on sm_80+, fp8
// e4m3 on sm_89+), each with f32 accumulation. Plain launchers, like devicekernels.h.
#include <cuda_runtime.h>

#include <cstddef>

namespace kforge::runtime::gpu {

// Reads `bytes` (a multiple of 16) from `data` once, 16 bytes a load; writes sink[0] only in a case that never
// happens, so the loads stay.
cudaError_t readProbe(const void *data, std::size_t bytes, unsigned *sink, int blocks, cudaStream_t stream);
constexpr int kReadThreads = 512;

enum class TensorKind { F16, Bf16, Tf32, Fp8E4m3 };
constexpr int kMmaThreads = 256; // 8 warps a block
constexpr int kMmaChains = 8;    // independent accumulators a warp keeps in flight

// FLOPs one warp's mma.sync does: 2 * m * n * k of the kind's shape (m16n8k16, m16n8k16, m16n8k8, m16n8k32).
double mmaFlopsPerInstruction(TensorKind kind);
// The smallest compute capability (major * 10 + minor) whose SASS has the instruction.
int mmaMinArch(TensorKind kind);
// `iterations` x kMmaChains mma.sync per warp in `blocks` x kMmaThreads threads. sink[0] gets 1 from every
// thread whose code has the instruction (the device code was built for an architecture that has it), so the
// caller can tell a measured loop from an empty one; sink[1] only in a case that never happens.
cudaError_t mmaProbe(TensorKind kind, unsigned *sink, int blocks, int iterations, cudaStream_t stream);

} // namespace kforge::runtime::gpu
