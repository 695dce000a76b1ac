# Honest: a Triton kernel for the softmax over dim 1, one program per row (the whole row in registers: subtract the
# row maximum, exponentiate, divide by the sum), launched on torch's current stream (Triton's default). The
# constructor compiles it on a small input of the task's row length. Without CUDA it runs the eager softmax; with
# CUDA and no Triton it fails rather than pass as eager code.
# KForge must report `correct` with no flag.
import torch
import torch.nn as nn

dim = 8192

try:
    import triton
    import triton.language as tl
except ImportError:
    triton = None

if triton is not None:
    @triton.jit
    def softmax_rows(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float('inf'))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=mask)


def triton_softmax(x):
    if triton is None:
        raise RuntimeError('th_triton_softmax needs triton on a CUDA host')
    x = x.contiguous()
    out = torch.empty_like(x)
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    softmax_rows[(rows,)](out, x, x.stride(0), out.stride(0), cols, BLOCK=block,
                          num_warps=16 if block >= 4096 else 8 if block >= 2048 else 4)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        if torch.cuda.is_available() and triton is not None:
            triton_softmax(torch.randn(2, dim, device='cuda'))
            torch.cuda.synchronize()

    def forward(self, x):
        return triton_softmax(x) if x.is_cuda else torch.softmax(x, dim=1)
