# A ModelNew whose ReLU is an inline C++ extension (torch.utils.cpp_extension.load_inline): built once per
# candidate file into KForge's build cache, found there by later evaluations.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_relu = load_inline(
    name='kforge_test_relu',
    cpp_sources=['torch::Tensor relu_inline(torch::Tensor x) { return x.clamp_min(0); }'],
    functions=['relu_inline'])


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.register_buffer('offset', torch.zeros(out_features))

    def forward(self, x):
        return _relu.relu_inline(self.linear(x) + self.offset)
