# A ModelNew whose inline C++ does not compile: the verdict names the compiler's error.
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_relu = load_inline(
    name='kforge_test_broken',
    cpp_sources=['torch::Tensor relu_inline(torch::Tensor x) { return x.clamp_min(0) + undeclared_name; }'],
    functions=['relu_inline'])


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return _relu.relu_inline(self.linear(x))
