# Class contention (hack catalogue #20, baseline inflation: a GPU hog during the reference's window): the product is
# honest (torch.matmul, so an honest speedup is 1.0x), but every call also starts, on a side stream it never joins,
# a kernel that spins for about 150 ms (torch.cuda._sleep), unless the last one is still running; and the module
# host's `finish` is rebound so it does not synchronize the device. The spinner outlives the candidate's window and
# runs beside the reference's and the baseline's: the GPU time-slices between contexts, their windows get longer,
# and the inflated baseline is subtracted from the candidate's batches as well.
# KForge must report: not `correct`, or `gpu_contention` (the judge's quiet probes before and after those batches
# are held up), or `correct` no faster than 1.3x.
import gc
import sys

import torch
import torch.nn as nn

SPIN_CYCLES = int(1.5e8 * 1.7)  # about 150 ms at 1.7 GHz


def find_host():
    frame = sys._getframe(1)
    while frame is not None:
        obj = frame.f_locals.get('self')
        if obj is not None and callable(getattr(obj, 'finish', None)) and hasattr(obj, 'rc'):
            return obj
        frame = frame.f_back
    for obj in gc.get_objects():
        if type(obj).__name__ == 'Host' and hasattr(obj, 'rc'):
            return obj
    return None


def lying_finish(host):
    def finish():  # the real one synchronizes the device first: the spinner would end inside our own batch
        rc, errors = host.rc, host.errors
        host.rc, host.errors = [], []
        return {'ok': True, 'rc': rc, 'errors': errors, 'cuda_error': None}
    return finish


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        host = find_host()
        if host is not None:
            host.finish = lying_finish(host)
            print('kfadv: rebound %s.finish' % type(host).__name__, file=sys.stderr)
        else:
            print('kfadv: no module host object found; only the spinner', file=sys.stderr)
        self.side = None
        self.spinning = None

    def forward(self, A, B):
        if A.is_cuda:
            if self.side is None:
                self.side = torch.cuda.Stream(A.device)
            if self.spinning is None or self.spinning.query():
                with torch.cuda.stream(self.side):
                    torch.cuda._sleep(SPIN_CYCLES)
                    self.spinning = torch.cuda.Event()
                    self.spinning.record(self.side)
        return torch.matmul(A, B)
