import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """The lookup as one index_select of the table's rows over the flattened ids, reshaped."""

    def __init__(self, num_embeddings, embedding_dim):
        super().__init__()
        self.table = nn.Embedding(num_embeddings, embedding_dim)

    def forward(self, ids):
        rows = self.table.weight.index_select(0, ids.reshape(-1))
        return rows.view(*ids.shape, self.table.weight.shape[1])
