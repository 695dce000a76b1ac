import torch
import torch.nn as nn

batch_size = 128
in_channels = 3
out_channels = 16
depth = 16
height = 32
width = 32
kernel_size = 3
groups = 8
min_value = 0.0
max_value = 1.0


class Model(nn.Module):
    """Conv3d, then GroupNorm, then torch.min with min_value, then torch.clamp to [min_value, max_value].

    x has shape (batch_size, in_channels, depth, height, width), float32; the convolution has stride 1 and no
    padding, so the output has shape (batch_size, out_channels, depth - kernel_size + 1, height - kernel_size + 1,
    width - kernel_size + 1). GroupNorm has `groups` groups and eps 1e-5."""

    def __init__(self, in_channels, out_channels, kernel_size, groups, min_value, max_value):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size)
        self.norm = nn.GroupNorm(groups, out_channels)
        self.min_value = min_value
        self.max_value = max_value

    def forward(self, x):
        x = self.conv(x)
        x = self.norm(x)
        x = torch.min(x, torch.tensor(self.min_value, device=x.device))
        x = torch.clamp(x, min=self.min_value, max=self.max_value)
        return x


def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, groups, min_value, max_value]
