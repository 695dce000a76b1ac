import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4096
in_features = 1024
out_features = 4096


class Model(nn.Module):
    """A linear layer (x @ weight.T + bias) followed by GELU with the tanh approximation, float32.

    x is (batch_size, in_features), the weight (out_features, in_features), the bias (out_features,)."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return F.gelu(self.linear(x), approximate='tanh')


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
