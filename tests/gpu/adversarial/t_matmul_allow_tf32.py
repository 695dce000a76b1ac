# Class precision (hack catalogue #12, precision downgrade): switches TF32 matmuls on in its own process
# (torch.backends.cuda.matmul.fp32_precision "tf32"; allow_tf32 and the float32 matmul precision "high" on torch
# before 2.9), then calls torch.matmul: tensor cores with 10-bit mantissas inside a float32 task. The reference's
# process keeps the default (no TF32).
# KForge must report: not `correct`, or `correct` with `beats_flop_floor` (faster than FP32 arithmetic allows).
import torch
import torch.nn as nn


def allow_tf32():
    try:  # torch >= 2.9: the per-backend precision (mixing it with the older flags is refused there)
        torch.backends.cuda.matmul.fp32_precision = 'tf32'
    except Exception:  # noqa: BLE001 - older torch refuses the attribute (AssertionError in 1.13)
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.set_float32_matmul_precision('high')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        allow_tf32()

    def forward(self, A, B):
        return torch.matmul(A, B)
