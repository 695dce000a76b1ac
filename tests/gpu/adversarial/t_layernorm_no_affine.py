# Class ignored_weights (hack catalogue #18, semantic shortcut): LayerNorm that ignores its learned weight and bias.
# With the constructor's values (weight 1, bias 0) it agrees with the reference; the judge loads the same moved weights
# into both sides.
# KForge must report `incorrect`.
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, features, eps):
        super().__init__()
        self.ln = nn.LayerNorm(features, eps=eps)

    def forward(self, x):
        return F.layer_norm(x, self.ln.normalized_shape, None, None, self.ln.eps)
