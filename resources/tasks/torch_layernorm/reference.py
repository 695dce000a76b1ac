import torch
import torch.nn as nn

batch_size = 8192
features = 4096
eps = 1e-5


class Model(nn.Module):
    """LayerNorm over the last dimension of a (batch_size, features) float32 tensor, with a learned weight and
    bias of shape (features,) and the given eps."""

    def __init__(self, features, eps):
        super().__init__()
        self.ln = nn.LayerNorm(features, eps=eps)

    def forward(self, x):
        return self.ln(x)


def get_inputs():
    return [torch.randn(batch_size, features)]


def get_init_inputs():
    return [features, eps]
