"""The timing parts of an evaluation that hold no state of it: the judge's own clock around a host's batch
(ExternalClock), the batch size, the median's interval and the summary statistics (docs/torch-worker.md, item 5)."""

import math
import statistics


def stats(samples):
    ordered = sorted(samples)

    def pct(q):
        return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]
    mean = statistics.fmean(ordered)
    cv = statistics.pstdev(ordered) / mean if mean > 0 and len(ordered) > 1 else 0.0
    return {'median_ms': statistics.median(ordered), 'mean_ms': mean, 'min_ms': ordered[0], 'p10_ms': pct(0.1),
            'p90_ms': pct(0.9), 'cv': cv, 'runs': len(ordered)}


class ExternalClock:
    """The judge's own clock around a host's timed batch (docs/torch-worker.md, "External timing"): per host a
    pair of interprocess events. The judge records its start event and `go` on a stream of its own, the host's
    stream waits for `go`, runs the batch and records `done`; the judge's stream waits for `done` and records
    its end event. So the judge's figure covers the whole batch on the device, measured by events only the judge
    holds, whatever runs in the host's process."""

    def __init__(self, evaluation, device):
        import base64
        import torch
        self.torch, self.evaluation = torch, evaluation
        self.stream = torch.cuda.Stream(device)
        self.sides = {}
        for side, host in (('reference', evaluation.ref), ('candidate', evaluation.cand)):
            go = torch.cuda.Event(enable_timing=False, interprocess=True)
            done = torch.cuda.Event(enable_timing=False, interprocess=True)
            with torch.cuda.stream(self.stream):
                go.record(self.stream)  # an event has a handle once recorded
                done.record(self.stream)
            self.stream.synchronize()
            evaluation.ask(host, {'op': 'events', 'go': base64.b64encode(go.ipc_handle()).decode(),
                                  'done': base64.b64encode(done.ipc_handle()).decode()}, [],
                           'lending the %s the timing events' % side)
            self.sides[side] = (go, done, torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))

    def batch(self, side, host, request, phase):
        go, done, start, end = self.sides[side]
        start.record(self.stream)
        go.record(self.stream)
        answer, kept = self.evaluation.ask(host, request, [], phase)
        self.stream.wait_event(done)
        end.record(self.stream)
        end.synchronize()
        return answer, kept, start.elapsed_time(end)


BATCH_DEVICE_MS = 10.0  # a timed batch: about this much of the calls' own device time (the host's events)


def batch_calls(device_per_call_ms):
    """Calls per timed batch, 1..256: about BATCH_DEVICE_MS of the calls' device time. Two shorter choices were
    measured on the H200 and are worse (session 8): 4 ms of the host's wall clock (16 calls of a 60 us kernel)
    and 5 ms of device time capped at 20 ms of wall clock both left the medians' intervals wide (the first calls
    after a batch's gap are slower, a larger share of a short batch), so timing ran longer, to max_time_ms on
    the smallest tasks, and a ModelNew's warm turnaround went from 0.96 s to 1.28 s."""
    return max(1, min(256, int(math.ceil(BATCH_DEVICE_MS / max(device_per_call_ms, 1e-4)))))


def median_ci(samples):
    """The 95% interval of the median from order statistics, as kforge-worker's (core/runtime/worker/medianci):
    [x_(j), x_(k)], j = floor(n/2 - 1.96*sqrt(n)/2), k = ceil(1 + n/2 + 1.96*sqrt(n)/2); half-width relative to
    the median, None while unbounded (fewer than 8 samples)."""
    ordered = sorted(samples)
    n = len(ordered)
    if n == 0:
        return {'ci_low_ms': None, 'ci_high_ms': None, 'half_width': None}
    med = statistics.median(ordered)
    j = int(math.floor(n / 2.0 - 1.96 * math.sqrt(n) / 2.0))
    k = int(math.ceil(1 + n / 2.0 + 1.96 * math.sqrt(n) / 2.0))
    if j < 1 or k > n or med <= 0:
        return {'ci_low_ms': None, 'ci_high_ms': None, 'half_width': None}
    low, high = ordered[j - 1], ordered[k - 1]
    return {'ci_low_ms': low, 'ci_high_ms': high, 'half_width': (high - low) / 2.0 / med}
