# The product in two row halves, each written by cuBLAS (tensor cores, f32 accumulation) into its half of one
# output: the same arithmetic as the reference, as two launches.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        half = A.shape[0] // 2
        out = torch.empty(A.shape[0], B.shape[1], dtype=A.dtype, device=A.device)
        torch.mm(A[:half], B, out=out[:half])
        torch.mm(A[half:], B, out=out[half:])
        return out
