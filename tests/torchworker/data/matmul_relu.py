import torch
import torch.nn as nn

M = 32
K = 48
N = 16


class Model(nn.Module):
    """Linear layer followed by ReLU."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.register_buffer('offset', torch.randn(out_features))

    def forward(self, x):
        return torch.relu(self.linear(x) + self.offset)


def get_inputs():
    return [torch.randn(M, K)]


def get_init_inputs():
    return [K, N]
