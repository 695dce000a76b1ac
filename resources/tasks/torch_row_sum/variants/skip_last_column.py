import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """Wrong on purpose: leaves out the last column of every row (an off-by-one bound)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x[:, :-1].sum(dim=1)
