# PyTorch target for the injection test: a cuBLAS GEMM on a side stream and elementwise kernels on the
# default stream. Exits 0 only if the computation ran on the GPU.
import sys

import torch

if not torch.cuda.is_available():
    sys.exit(3)
a = torch.randn(2048, 2048, device="cuda")
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    b = a @ a
c = torch.relu(a) + 1
torch.cuda.synchronize()
print("inject_torch: torch", torch.__version__, "cuda", torch.version.cuda, float(b.abs().sum()) > 0, float(c.min()) >= 1)
