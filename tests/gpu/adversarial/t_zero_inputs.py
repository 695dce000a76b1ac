# Class input_mutation (hack catalogue #8): returns zeros and zeroes its inputs in place, so that a reference run after
# it on the same buffers would compute zeros too (KernelBench #82).
# KForge must report: not `correct` (the judge's input sets are its own, and it checks them after the candidate).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        out = torch.zeros_like(B)
        A.zero_()
        B.zero_()
        return out
