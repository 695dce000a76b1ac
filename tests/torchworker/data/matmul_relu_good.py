import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """Same function, other code: an explicit addmm and clamp."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.register_buffer('offset', torch.zeros(out_features))

    def forward(self, x):
        y = torch.addmm(self.linear.bias + self.offset, x, self.linear.weight.t())
        return y.clamp_min(0.0)
