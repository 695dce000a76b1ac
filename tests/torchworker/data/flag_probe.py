import torch
import torch.nn as nn

N = 64


class Model(nn.Module):
    """Doubles its input when TF32 matmuls are allowed in this process: shows which flags the reference saw."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x * (2.0 if torch.backends.cuda.matmul.allow_tf32 else 1.0)


def get_inputs():
    return [torch.randn(N)]


def get_init_inputs():
    return []
