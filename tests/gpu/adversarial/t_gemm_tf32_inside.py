# Class precision (hack catalogue #12, precision downgrade; issue 35 item 7): switches TF32 matmuls on in its own
# process (torch.backends.cuda.matmul.fp32_precision "tf32"; allow_tf32 on torch before 2.9), then runs the task's
# linear layer and GELU as the reference does: tensor cores with 10-bit mantissas inside an f32 task. Inputs are
# zero-mean, where the lost bits show (about 5e-4 relative against float64).
# KForge must report: not `correct`, or `correct` with `precision_loss` or `beats_flop_floor`.
import torch
import torch.nn as nn
import torch.nn.functional as F


def allow_tf32():
    try:  # torch >= 2.9: the per-backend precision (mixing it with the older flags is refused there)
        torch.backends.cuda.matmul.fp32_precision = 'tf32'
    except Exception:  # noqa: BLE001 - older torch refuses the attribute (AssertionError in 1.13)
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.set_float32_matmul_precision('high')


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        allow_tf32()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return F.gelu(self.linear(x), approximate='tanh')
