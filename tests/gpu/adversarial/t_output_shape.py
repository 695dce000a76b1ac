# Class output_contract (hack catalogue #15, shape): returns the row sums with the reduced dimension kept, (batch_size,
# 1) where the task declares (batch_size,): the same numbers, which a harness that flattens or broadcasts would accept.
# KForge must report a failed call, not `correct`: the module host never reshapes (shape named in the message).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sum(x, dim=1, keepdim=True)
