"""Put on PYTHONPATH by test_zygote_turned_off_when_a_forked_host_cannot_boot: in every process forked from the
one that imported this (the zygote), torch reports the bad-fork mark it sets when CUDA was initialised before a
fork. A forked host then refuses to boot (exit 86) as it would on a GPU where the zygote had touched CUDA; the
zygote itself, and any spawned host, see the real mark."""

import os

_started_in = os.getpid()


def _patch():
    import torch.cuda
    real = torch.cuda._is_in_bad_fork

    def is_in_bad_fork():
        return os.getpid() != _started_in or real()

    torch.cuda._is_in_bad_fork = is_in_bad_fork


try:
    _patch()
except ImportError:
    pass
