# A ModelNew for torch_diag_matmul whose row scaling is inline CUDA (torch.utils.cpp_extension.load_inline):
# diag(A) @ B scales row i of B by A[i]. Built once per candidate file into KForge's build cache, found there by
# later evaluations (the turnaround of a build hit, tests/bench/torch_turnaround.py).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CUDA = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAStream.h>

__global__ void rowscale(const float *__restrict__ a, const float4 *__restrict__ b, float4 *__restrict__ c,
                         long n, long m4)
{
    for (long row = blockIdx.y; row < n; row += gridDim.y) {
        const float s = a[row];
        for (long j = blockIdx.x * (long)blockDim.x + threadIdx.x; j < m4; j += (long)gridDim.x * blockDim.x) {
            float4 v = b[row * m4 + j];
            v.x *= s; v.y *= s; v.z *= s; v.w *= s;
            c[row * m4 + j] = v;
        }
    }
}

torch::Tensor diag_rowscale(torch::Tensor a, torch::Tensor b)
{
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "diag_rowscale: CUDA tensors expected");
    TORCH_CHECK(b.dim() == 2 && b.size(1) % 4 == 0, "diag_rowscale: B's rows must be a whole number of float4s");
    a = a.contiguous();
    b = b.contiguous();
    auto c = torch::empty_like(b);
    const long n = b.size(0), m4 = b.size(1) / 4;
    const dim3 grid((unsigned)std::min<long>((m4 + 255) / 256, 8), (unsigned)std::min<long>(n, 65535));
    rowscale<<<grid, 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), reinterpret_cast<const float4 *>(b.data_ptr<float>()),
        reinterpret_cast<float4 *>(c.data_ptr<float>()), n, m4);
    return c;
}
"""

_ext = load_inline(
    name='kforge_test_diag_rowscale',
    cpp_sources=['torch::Tensor diag_rowscale(torch::Tensor a, torch::Tensor b);'],
    cuda_sources=[_CUDA],
    functions=['diag_rowscale'])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return _ext.diag_rowscale(A, B)
