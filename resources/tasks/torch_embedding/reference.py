import torch
import torch.nn as nn

num_embeddings = 65536
embedding_dim = 1024
batch_size = 64
seq_len = 512


class Model(nn.Module):
    """An embedding lookup: int64 token ids of shape (batch_size, seq_len), each in [0, num_embeddings), select
    rows of a (num_embeddings, embedding_dim) float32 table; the output is (batch_size, seq_len, embedding_dim)."""

    def __init__(self, num_embeddings, embedding_dim):
        super().__init__()
        self.table = nn.Embedding(num_embeddings, embedding_dim)

    def forward(self, ids):
        return self.table(ids)


def get_inputs():
    return [torch.randint(0, num_embeddings, (batch_size, seq_len))]


def get_init_inputs():
    return [num_embeddings, embedding_dim]
