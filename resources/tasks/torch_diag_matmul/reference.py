import torch
import torch.nn as nn

N = 4096
M = 4096


class Model(nn.Module):
    """diag(A) @ B: a diagonal matrix made from the vector A times the matrix B.

    A has shape (N,), B has shape (N, M), the result C = torch.diag(A) @ B has shape (N, M), all float32. The
    reference materialises the N x N diagonal matrix and multiplies it with a dense matrix product."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.diag(A) @ B


def get_inputs():
    A = torch.randn(N)
    B = torch.randn(N, M)
    return [A, B]


def get_init_inputs():
    return []
