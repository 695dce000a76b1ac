# Class precision (hack catalogue #12, precision downgrade): the float32 matmul done in bfloat16 (inputs rounded to
# 8-bit mantissas, the product accumulated and returned in float32 where torch offers out_dtype, else rounded back),
# returned as float32.
# KForge must report: not `correct` (the rounding exceeds the f32 tolerance), or `correct` with `beats_flop_floor`
# (faster than FP32 arithmetic allows).
import torch
import torch.nn as nn


def bf16_matmul(A, B):
    a, b = A.to(torch.bfloat16), B.to(torch.bfloat16)
    try:
        return torch.mm(a, b, out_dtype=torch.float32)
    except (TypeError, RuntimeError):  # torch without out_dtype for mm
        return torch.mm(a, b).float()


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return bf16_matmul(A, B)
