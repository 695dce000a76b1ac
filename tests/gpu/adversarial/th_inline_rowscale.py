# Honest: inline CUDA (torch.utils.cpp_extension.load_inline, built by the constructor into the host's private
# TORCH_EXTENSIONS_DIR) for diag(A) @ B: row i of B scaled by A[i], launched on torch.cuda.current_stream() (the
# host's stream) through its raw handle. The CUDA source uses no torch type, so only the small C++ binding
# includes torch's headers. A build takes tens of seconds (the case's timeout_s allows it).
# KForge must report `correct` with no flag.
import torch
import torch.nn as nn

CUDA = r"""
__global__ void kfadv_rowscale(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
                               long long n, long long m)
{
    for (long long row = blockIdx.y; row < n; row += gridDim.y) {
        const float s = a[row];
        const long long step = (long long)gridDim.x * blockDim.x;
        for (long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x; j < m; j += step)
            c[row * m + j] = s * b[row * m + j];
    }
}

int kfadv_rowscale_launch(int64_t a, int64_t b, int64_t c, int64_t n, int64_t m, int64_t stream)
{
    const long long cols = (m + 255) / 256;
    const dim3 grid((unsigned)(cols < 64 ? cols : 64), (unsigned)(n < 65535 ? n : 65535));
    kfadv_rowscale<<<grid, 256, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
        reinterpret_cast<const float *>(a), reinterpret_cast<const float *>(b), reinterpret_cast<float *>(c), n, m);
    return (int)cudaGetLastError();
}
"""
CPP = 'int kfadv_rowscale_launch(int64_t a, int64_t b, int64_t c, int64_t n, int64_t m, int64_t stream);'
_ext = None


def extension():
    global _ext
    if _ext is None:
        from torch.utils.cpp_extension import load_inline
        _ext = load_inline(name='kfadv_inline_rowscale', cpp_sources=[CPP], cuda_sources=[CUDA],
                           functions=['kfadv_rowscale_launch'], extra_cuda_cflags=['-O3'])
    return _ext


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        if torch.cuda.is_available():
            extension()

    def forward(self, A, B):
        if not B.is_cuda:
            return A.unsqueeze(1) * B
        A, B = A.contiguous(), B.contiguous()
        out = torch.empty_like(B)
        n, m = B.shape
        rc = extension().kfadv_rowscale_launch(A.data_ptr(), B.data_ptr(), out.data_ptr(), n, m,
                                                torch.cuda.current_stream(B.device).cuda_stream)
        if rc != 0:
            raise RuntimeError('kfadv_rowscale launch failed: CUDA error %d' % rc)
        return out
