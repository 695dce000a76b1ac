import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """LayerNorm written out with torch.var_mean and rsqrt, using the module's own weight and bias."""

    def __init__(self, features, eps):
        super().__init__()
        self.ln = nn.LayerNorm(features, eps=eps)

    def forward(self, x):
        var, mean = torch.var_mean(x, dim=1, unbiased=False, keepdim=True)
        return (x - mean) * torch.rsqrt(var + self.ln.eps) * self.ln.weight + self.ln.bias
