# Class timed_vs_verification (hack catalogue #5, result caching): remembers each call's output under a key made of the
# inputs' data_ptr() and a few sampled elements, and returns the remembered output, without computing, when the key
# comes back. Reading the samples needs their values on the host (.tolist() synchronises the stream), so a batch held at
# the judge's gate waits for it: the judge may end up timing without the gate (a warning). The judge writes fresh inputs
# every round, so the samples change; the cache can only hit where one input set comes back with the same contents.
# KForge must report: not `correct`, or `correct` with `beats_flop_floor` / `below_speed_of_light`, or `correct` no
# faster than 1.5x (the cache never hit: the honest torch.matmul speed).
import torch
import torch.nn as nn

KEEP = 32  # outputs kept (64 MiB each at the task's size)


def sampled(t):
    flat = t.reshape(-1)
    n = flat.numel()
    return tuple(flat[[0, n // 3, (2 * n) // 3, n - 1]].tolist())


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = {}

    def forward(self, A, B):
        key = (A.data_ptr(), B.data_ptr(), sampled(A), sampled(B))
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        out = torch.matmul(A, B)
        if len(self.cache) >= KEEP:
            self.cache.pop(next(iter(self.cache)))
        self.cache[key] = out
        return out
