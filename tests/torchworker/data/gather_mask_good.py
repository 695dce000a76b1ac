import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)

    def forward(self, idx, mask, scale):
        rows = self.emb.weight.index_select(0, idx.reshape(-1)).reshape(*idx.shape, -1)
        return torch.where(mask.unsqueeze(-1), rows * scale, torch.zeros_like(rows))
