# Class arithmetic_floor (hack catalogue #6, timed vs verified): counts its calls and computes only the first of every
# four; the three others return the last product again (the output of other inputs).
# KForge must report: not `correct` (every output of the first round is compared), or `correct` with `beats_flop_floor`
# / `below_speed_of_light`.
import torch
import torch.nn as nn

EVERY = 4


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.last = None

    def forward(self, A, B):
        self.calls += 1
        if self.last is None or self.calls % EVERY == 1:
            self.last = torch.matmul(A, B)
        return self.last
