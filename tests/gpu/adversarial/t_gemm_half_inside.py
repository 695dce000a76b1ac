# Class precision (hack catalogue #12, precision downgrade; issue 35 item 7): the linear layer of an f32 task done
# in half precision inside (`.half()` on the input, the weight and the bias, f16 tensor cores with f32
# accumulation), the result cast back to float32, so the output dtype is the task's. Inputs are zero-mean (normal x,
# the judge's moved weights), where half precision's 11 bits show: about 5e-4 relative against float64, against the
# reference's 2e-6.
# KForge must report: not `correct` (the task's 1e-4 tolerance), or `correct` with `precision_loss` (the judge's
# float64 reference: the candidate's error far beyond the reference's).
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        w, b = self.linear.weight, self.linear.bias
        if x.is_cuda:
            y = F.linear(x.half(), w.half(), b.half()).float()
        else:  # the CPU has no half GEMM everywhere: the same rounding of the operands, f32 arithmetic
            y = F.linear(x.half().float(), w.half().float(), b.half().float())
        return F.gelu(y, approximate='tanh')
