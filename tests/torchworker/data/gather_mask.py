import torch
import torch.nn as nn

B = 4
L = 12
V = 50
D = 8


class Model(nn.Module):
    """Embedding lookup of int64 indices, rows zeroed where the bool mask is False."""

    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)

    def forward(self, idx, mask, scale):
        assert idx.dtype == torch.int64 and mask.dtype == torch.bool, (idx.dtype, mask.dtype)
        return self.emb(idx) * mask.unsqueeze(-1) * scale


def get_inputs():
    return [torch.randint(0, V, (B, L)), torch.rand(B, L) > 0.5, 0.5]


def get_init_inputs():
    return [V, D]
