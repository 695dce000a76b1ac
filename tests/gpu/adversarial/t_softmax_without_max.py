# Class unstable_numerics (hack catalogue #14, input distribution): softmax without subtracting the row maximum. Right
# for the declared N(0, 1) inputs; exp overflows once the inputs are scaled (x16: exp(90) is inf in float32).
# KForge must report `incorrect`, mentioning `unstable_numerics` (the judge's edge rounds).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        e = torch.exp(x)
        return e / e.sum(dim=1, keepdim=True)
