import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """Right outputs, but writes into its input (in-place ReLU on x's storage)."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.register_buffer('offset', torch.zeros(out_features))

    def forward(self, x):
        out = torch.relu(self.linear(x) + self.offset)
        x.zero_()
        return out
