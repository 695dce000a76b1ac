import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """The row sum in two stages: sums of blocks of 64 columns, then the sum of the block sums."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        rows, cols = x.shape
        if cols % 64 != 0:
            return x.sum(dim=1)
        return x.view(rows, cols // 64, 64).sum(dim=2).sum(dim=1)
