import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """A @ B as two half-K products accumulated with addmm (a different summation order, the same product)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        h = A.shape[1] // 2
        return torch.addmm(A[:, h:] @ B[h:], A[:, :h], B[:h])
