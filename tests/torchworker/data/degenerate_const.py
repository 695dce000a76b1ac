import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(d))

    def forward(self, x):
        return self.bias.expand(x.shape[0], -1).contiguous()
