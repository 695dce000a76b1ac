import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """Leaves its input alone in verification (5 calls), then moves one element of it by one ulp on the first
    timed call: invisible in the outputs, seen only by the check of the timing inputs after timing."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.register_buffer('offset', torch.zeros(out_features))
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        out = torch.relu(self.linear(x) + self.offset)
        if self.calls == 6:
            x.view(torch.int32).reshape(-1)[0] += 1
        return out
