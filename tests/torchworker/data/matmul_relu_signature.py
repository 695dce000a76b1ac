import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features):
        super().__init__()
        self.linear = nn.Linear(in_features, in_features)

    def forward(self, x):
        return self.linear(x)
