# Honest: torch.compile of the reference's computation (softmax over dim 1). The constructor compiles it at the
# task's size under no_grad, as the host calls forward, so the build (inductor's Triton kernel) happens at load and
# not inside the first batch; compile_threads = 1 keeps the build in the host's process. Without torch.compile
# (torch < 2) or without CUDA it runs the eager softmax.
# KForge must report `correct` with no flag.
import torch
import torch.nn as nn

batch_size = 4096
dim = 8192


def softmax(x):
    return torch.softmax(x, dim=1)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fn = softmax
        if hasattr(torch, 'compile') and torch.cuda.is_available():
            import torch._inductor.config as inductor
            inductor.compile_threads = 1
            self.fn = torch.compile(softmax, dynamic=False)
            with torch.no_grad():
                self.fn(torch.randn(batch_size, dim, device='cuda'))
            torch.cuda.synchronize()

    def forward(self, x):
        return self.fn(x) if x.is_cuda else softmax(x)
