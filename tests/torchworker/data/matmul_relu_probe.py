import os

import torch
import torch.nn as nn


def describe_process():
    """What this host process holds: its open descriptors (number and target), whether it leads its own
    session, its working directory and the threads it runs; printed for the judge's stdout capture."""
    fds = {}
    for name in sorted(os.listdir('/proc/self/fd'), key=int):
        try:
            fds[int(name)] = os.readlink('/proc/self/fd/' + name)
        except OSError:
            pass  # the listing's own descriptor, closed already
    print('probe fds %r' % sorted(fds.items()))
    print('probe session_leader %s' % (os.getsid(0) == os.getpid()))
    print('probe cwd %s' % os.getcwd())


class ModelNew(nn.Module):
    """matmul_relu_good.py's computation, with a report of the process it runs in."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.register_buffer('offset', torch.zeros(out_features))
        describe_process()

    def forward(self, x):
        y = torch.addmm(self.linear.bias + self.offset, x, self.linear.weight.t())
        return y.clamp_min(0.0)
