import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.register_buffer('offset', self.linear.bias.detach().clone())

    def forward(self, x):
        raise RuntimeError('kernel not written yet')
