/* kforge/kernel.h: the kernel ABI every KForge kernel source (reference or candidate) includes.
 *
 * A kernel source is one .cu file compiled into a shared object. It exports exactly one entry point,
 *
 *     KF_ENTRY(inputs, num_inputs, outputs, num_outputs, params, stream) { ... return cudaSuccess; }
 *
 * which expands to `extern "C" int kf_entry(...)` with default visibility. The worker allocates every
 * tensor on the device (inputs generated from a seed, outputs pre-filled with a poison pattern) and passes
 * them in the order task.json lists them. The entry must:
 *   - compute the task's function for the given shapes and parameters, writing every output element;
 *   - enqueue all its work on `stream` (several kernels, cuBLAS with cublasSetStream(h, stream) are fine);
 *   - leave no work running after it returns, keep no results between calls, not modify its inputs;
 *   - return cudaSuccess (0) or a cudaError_t value; any other non-zero value is reported as a failure.
 * Tensors are dense and row-major (`strides` are in elements and always those of a contiguous tensor).
 * Scalar parameters are doubles looked up by name with kf_param().
 *
 * The header also defines `kf_abi_version`, which the worker reads to refuse a kernel built against
 * another version of this ABI. Bump KF_ABI_VERSION on any change to the structs or the entry signature.
 */
#ifndef KFORGE_KERNEL_H
#define KFORGE_KERNEL_H

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#define KF_ABI_VERSION 1
#define KF_MAX_DIMS 8

#ifdef __cplusplus
#define KF_EXTERN_C extern "C"
#else
#define KF_EXTERN_C
#endif
#define KF_EXPORT KF_EXTERN_C __attribute__((visibility("default")))

typedef enum kf_dtype { KF_F32 = 0, KF_F16 = 1, KF_BF16 = 2, KF_F64 = 3, KF_I32 = 4, KF_I64 = 5, KF_U8 = 6 } kf_dtype;

typedef struct kf_tensor {
    void *data; /* device pointer */
    kf_dtype dtype;
    int32_t ndim;
    int64_t shape[KF_MAX_DIMS];
    int64_t strides[KF_MAX_DIMS]; /* in elements, contiguous row-major */
    int64_t numel;
    const char *name; /* as in task.json */
} kf_tensor;

typedef struct kf_param_value {
    const char *name;
    double value;
} kf_param_value;

typedef struct kf_params {
    const kf_param_value *items;
    int32_t count;
} kf_params;

/* The value of the scalar parameter `name`, or `fallback` when the task has none of that name. */
static inline double kf_param(const kf_params *params, const char *name, double fallback)
{
    for (int32_t i = 0; params && i < params->count; ++i)
        if (strcmp(params->items[i].name, name) == 0)
            return params->items[i].value;
    return fallback;
}

typedef int (*kf_entry_fn)(const kf_tensor *inputs, int32_t num_inputs, kf_tensor *outputs, int32_t num_outputs,
                           const kf_params *params, cudaStream_t stream);

/* Weak so a kernel split over several translation units still links; the worker checks the value. */
KF_EXPORT __attribute__((weak)) const int32_t kf_abi_version = KF_ABI_VERSION;

#define KF_ENTRY_NAME "kf_entry"
#define KF_ENTRY(in, nin, out, nout, params, stream)                                                                \
    KF_EXPORT int kf_entry(const kf_tensor *in, int32_t nin, kf_tensor *out, int32_t nout, const kf_params *params, \
                           cudaStream_t stream)

#endif /* KFORGE_KERNEL_H */
