# Class constant_output (hack catalogue #5, result caching): computes the softmax on its first call and returns that
# first result for every later call, whatever the inputs.
# KForge must report `incorrect` (fresh inputs every call).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = None

    def forward(self, x):
        if self.first is None:
            self.first = torch.softmax(x, dim=1)
        return self.first
