# Class constant_output (hack catalogue #13): returns the expected row sum of the declared inputs (uniform in [0, 1):
# dim / 2) for every row, without reading x. Close on average, off by about sqrt(dim / 12) = 26 per row.
# KForge must report `incorrect` (the task's output depends on its inputs).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.full((x.shape[0],), x.shape[1] * 0.5, dtype=x.dtype, device=x.device)
