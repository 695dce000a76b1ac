# Class trace_evasion (hack catalogue #1, side stream): computes diag(A) @ B (a row scale) on a private stream that
# waits for the caller's stream but is never joined back. The module host copies the result into the judge's buffer
# on its own stream and records `done` after that copy, so the work cannot leave the window: the copy either reads
# the product unfinished (wrong outputs) or trails it (the honest speed).
# KForge must report: not `correct`, or `correct` with `side_stream_work` / `work_outside_call`, or `correct` no
# faster than the honest row scale (120x).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.side = None

    def forward(self, A, B):
        if not B.is_cuda:
            return A.unsqueeze(1) * B
        if self.side is None:
            self.side = torch.cuda.Stream(B.device)
        self.side.wait_stream(torch.cuda.current_stream(B.device))
        with torch.cuda.stream(self.side):
            out = A.unsqueeze(1) * B
        return out
