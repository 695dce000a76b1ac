#include "views/editor/cudalexer.h"

namespace kforge {

CudaLexer::CudaLexer(QObject *parent)
    : QsciLexerCPP(parent)
{
    setFoldAtElse(true);
    setFoldComments(true);
    setFoldPreprocessor(true);
    setHighlightEscapeSequences(true);
}

const char *CudaLexer::language() const
{
    return "CUDA";
}

const char *CudaLexer::keywords(int set) const
{
    switch (set) {
    case 2:
        return
            // execution space, memory space and function qualifiers
            "__global__ __device__ __host__ __shared__ __constant__ __managed__ __grid_constant__ "
            "__restrict__ __noinline__ __forceinline__ __launch_bounds__ __cluster_dims__ __align__ "
            "__inline__ __volatile__ __builtin_assume __builtin_expect __assume__ "
            // built-in variables
            "threadIdx blockIdx blockDim gridDim warpSize clusterIdx clusterDim "
            // synchronization and memory fences
            "__syncthreads __syncthreads_count __syncthreads_and __syncthreads_or __syncwarp "
            "__threadfence __threadfence_block __threadfence_system __nanosleep "
            // warp-level primitives
            "__shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync __ballot_sync __any_sync __all_sync "
            "__activemask __match_any_sync __match_all_sync __reduce_add_sync __reduce_min_sync "
            "__reduce_max_sync __reduce_and_sync __reduce_or_sync __reduce_xor_sync "
            // atomics
            "atomicAdd atomicSub atomicExch atomicMin atomicMax atomicInc atomicDec atomicCAS atomicAnd "
            "atomicOr atomicXor atomicAdd_block atomicAdd_system "
            // loads, stores and cache hints
            "__ldg __ldcg __ldca __ldcs __ldlu __ldcv __stwb __stcg __stcs __stwt __prefetch_global_l2 "
            // fast math and conversions
            "__fdividef __expf __exp10f __logf __log2f __log10f __sinf __cosf __tanf __sincosf __powf "
            "__fmaf_rn __fmul_rn __fadd_rn __frcp_rn __fsqrt_rn __frsqrt_rn __saturatef rsqrtf "
            "__float2half __half2float __float2half_rn __floats2half2_rn __half22float2 __float2bfloat16 "
            "__bfloat162float __float22half2_rn __hadd __hsub __hmul __hfma __hadd2 __hmul2 __hfma2 "
            "__int_as_float __float_as_int __popc __popcll __clz __clzll __ffs __ffsll __brev __byte_perm "
            "__funnelshift_l __funnelshift_r __mul24 __umul24 __mulhi __umulhi __dp4a __dp2a "
            // cooperative groups and asynchronous copies
            "cooperative_groups this_thread_block tiled_partition this_grid "
            "__pipeline_memcpy_async __pipeline_commit __pipeline_wait_prior memcpy_async "
            // runtime API calls that kernels' host code uses
            "cudaMalloc cudaFree cudaMemcpy cudaMemcpyAsync cudaMemset cudaMemsetAsync cudaGetLastError "
            "cudaPeekAtLastError cudaStreamSynchronize cudaDeviceSynchronize cudaFuncSetAttribute "
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor cudaGetErrorString cudaSuccess "
            "cudaMemcpyHostToDevice cudaMemcpyDeviceToHost cudaMemcpyDeviceToDevice "
            "cudaFuncAttributeMaxDynamicSharedMemorySize "
            // the KForge kernel ABI (kforge/kernel.h)
            "KF_ENTRY KF_EXPORT KF_ABI_VERSION KF_MAX_DIMS kf_param kf_entry "
            "KF_F32 KF_F16 KF_BF16 KF_F64 KF_I32 KF_I64 KF_U8";
    case 4:
        return "half half2 __half __half2 __nv_bfloat16 __nv_bfloat162 nv_bfloat16 nv_bfloat162 "
               "__nv_fp8_e4m3 __nv_fp8_e5m2 "
               "char1 char2 char3 char4 uchar1 uchar2 uchar3 uchar4 short1 short2 short3 short4 "
               "ushort1 ushort2 ushort3 ushort4 int1 int2 int3 int4 uint1 uint2 uint3 uint4 "
               "long1 long2 long3 long4 ulong1 ulong2 ulong3 ulong4 longlong1 longlong2 longlong4 "
               "float1 float2 float3 float4 double1 double2 double3 double4 dim3 "
               "cudaStream_t cudaError_t cudaEvent_t cudaDeviceProp cudaFuncAttributes "
               "cublasHandle_t cublasStatus_t thread_block thread_block_tile grid_group "
               "int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t size_t "
               "kf_tensor kf_params kf_param_value kf_dtype kf_entry_fn";
    default: return QsciLexerCPP::keywords(set);
    }
}

QString CudaLexer::description(int style) const
{
    switch (style) {
    case cudaKeywordStyle: return tr("CUDA keyword");
    case cudaTypeStyle: return tr("CUDA type");
    default: return QsciLexerCPP::description(style);
    }
}

} // namespace kforge
