#!/usr/bin/env python3
"""How long a torch worker's host takes to boot, forked from the zygote against spawned (issue 13): from the
judge asking for a host to the host answering (torch imported, its CUDA context made on a GPU), and how long
its end takes. Prints figures; not a pass/fail test.

  torch_host_boot.py [--device cpu|cuda:0] [--reps 5]"""

import argparse
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'torchworker'))

from kforge_torchworker.hostproc import HostProcess, Zygote  # noqa: E402


def measure(zygote, device, reps):
    boots, ends, forked = [], [], []
    for _ in range(reps):
        t0 = time.monotonic()
        host = HostProcess('candidate', None, device, zygote)
        host.wait_booted(time.monotonic() + 120)
        boots.append(time.monotonic() - t0)
        forked.append(host.forked)
        t0 = time.monotonic()
        host.close()
        ends.append(time.monotonic() - t0)
    return boots, ends, forked


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--device', default='cpu')
    ap.add_argument('--reps', type=int, default=5)
    a = ap.parse_args()
    t0 = time.monotonic()
    zygote = Zygote()
    ready = zygote.wait_ready(120)
    print('zygote ready %s in %.2f s (its import of torch: %s s)%s' % (
        ready, time.monotonic() - t0, zygote.import_s, '' if ready else ': ' + zygote.why))
    print('%-8s %-8s %10s %10s %10s  %s' % ('host', 'device', 'boot med', 'boot max', 'end med', 'forked'))
    for label, z in (('forked', zygote if ready else None), ('spawned', None)):
        boots, ends, forked = measure(z, a.device, a.reps)
        print('%-8s %-8s %9.3fs %9.3fs %9.3fs  %s' % (label, a.device, statistics.median(boots), max(boots),
                                                     statistics.median(ends), forked))
    zygote.close()


if __name__ == '__main__':
    main()
