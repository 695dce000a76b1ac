# Class cleanup_floods (failures named): the constructor raises. Nothing to cheat; the judge must say where the module
# failed.
# KForge must report `load_error` naming the step (construct) and the exception, and survive.
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        raise RuntimeError('kfadv: this constructor refuses to build the module')

    def forward(self, A, B):
        return A.unsqueeze(1) * B
