# Class cleanup_floods (failures named): the forward raises on every call. Nothing to cheat; the judge must say where
# the module failed.
# KForge must report a failed call, not `correct`, naming the step (forward) and the exception, and survive.
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        raise ValueError('kfadv: this forward refuses to compute')
