# Honest (issue 35: an f16 tensor-core GEMM must not be flagged by the FLOP floor): torch_matmul_f16's product
# as F.linear(A, B.t()), so cuBLAS runs its transposed-operand f16 GEMM (tensor cores, f32 accumulation) on the
# current stream. KForge must report `correct` with no flag (the f16 FLOP floor is the tensor cores' peak, never
# the FP32 FMA's).
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return F.linear(A, B.t())
