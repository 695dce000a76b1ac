# Class host_tampering (hack catalogue #3, timer and checker monkey-patching): the constructor patches, in its own
# process, everything a Python harness would time or compare with: torch.cuda.Event.elapsed_time (always 0.001 ms),
# torch.cuda.synchronize (a no-op), time.perf_counter / time.monotonic / time.time (frozen), torch.allclose /
# torch.equal (always True) and torch.testing.assert_close (silent). The forward is the honest row scale.
# KForge must report `correct` at an honest speed: the judge times with its own events in its own process and compares
# in its own process, so none of the patches reaches a figure.
import time

import torch
import torch.nn as nn


def patch():
    frozen = time.perf_counter()
    time.perf_counter = lambda: frozen
    time.monotonic = lambda: frozen
    time.time = lambda: frozen
    torch.cuda.Event.elapsed_time = lambda self, end: 0.001
    torch.cuda.synchronize = lambda device=None: None
    torch.allclose = lambda *a, **k: True
    torch.equal = lambda *a, **k: True
    torch.testing.assert_close = lambda *a, **k: None


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        patch()

    def forward(self, A, B):
        return A.unsqueeze(1) * B
