import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """Renames the layer: its state dict has other keys than the reference's."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.proj = nn.Linear(in_features, out_features)
        self.register_buffer('offset', torch.zeros(out_features))

    def forward(self, x):
        return torch.relu(self.proj(x) + self.offset)
