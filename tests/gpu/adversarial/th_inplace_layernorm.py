# Honest: LayerNorm written out with in-place operations on its own intermediates (never on the input): the
# statistics from torch.var_mean (Welford, as the reference), then y = x - mean, y *= rsqrt(var + eps) with the
# variance turned into the scale in place, y *= weight, y += bias.
# KForge must report `correct` with no flag.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, features, eps):
        super().__init__()
        self.ln = nn.LayerNorm(features, eps=eps)

    def forward(self, x):
        var, mean = torch.var_mean(x, dim=1, unbiased=False, keepdim=True)
        y = x - mean
        y.mul_(var.add_(self.ln.eps).rsqrt_())
        y.mul_(self.ln.weight)
        y.add_(self.ln.bias)
        return y
