# Class output_contract (hack catalogue #12, precision downgrade at the boundary): returns the row sums as float16 where
# the task declares float32, hoping the harness converts the result on its way into the output buffer.
# KForge must report a failed call, not `correct`: the module host never converts (dtype named in the message).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sum(x, dim=1).half()
