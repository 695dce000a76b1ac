import torch
import torch.nn as nn

N = 8
D = 16


class Model(nn.Module):
    """The output is the bias broadcast: it does not depend on the input."""

    def __init__(self, d):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(d))

    def forward(self, x):
        return torch.zeros_like(x) + self.bias


def get_inputs():
    return [torch.randn(N, D)]


def get_init_inputs():
    return [D]
