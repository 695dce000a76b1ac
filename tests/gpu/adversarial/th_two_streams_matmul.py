# Honest: the matmul split in two halves of rows, the top half on the caller's stream and the bottom half on a side
# stream, joined with events both ways: the side stream waits for an event recorded on the caller's stream (the
# inputs are ready), and the caller's stream waits for an event recorded on the side stream before forward returns.
# KForge must report `correct` with no flag.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.side = None

    def forward(self, A, B):
        if not A.is_cuda:
            return torch.matmul(A, B)
        if self.side is None:
            self.side = torch.cuda.Stream(A.device)
        caller = torch.cuda.current_stream(A.device)
        out = torch.empty(A.shape[0], B.shape[1], dtype=A.dtype, device=A.device)
        half = A.shape[0] // 2
        ready = torch.cuda.Event()
        ready.record(caller)
        self.side.wait_event(ready)
        with torch.cuda.stream(self.side):
            torch.mm(A[half:], B, out=out[half:])
        done = torch.cuda.Event()
        done.record(self.side)
        torch.mm(A[:half], B, out=out[:half])
        caller.wait_event(done)
        return out
