#!/usr/bin/env python3
"""Runs one torch task's candidate plainly, for ncu (issue 13: CUPTI against ncu on torch tasks).

  torch_launch.py TASK_DIR CANDIDATE [--runs N]

The reference is constructed as the judge does (get_init_inputs, on the device), the candidate gets its state
dict; a ModelNew .py or a KForge .cu (compiled with nvcc, kf_entry through ctypes, as in the torch worker's
hosts). Then N runs on one input set, each after an L2 flush and a device synchronisation, inside an NVTX range
"kforge_run", so that `ncu --nvtx --nvtx-include "kforge_run/"` profiles the candidate's kernels only."""

import argparse
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, 'torchworker'))

import torch  # noqa: E402

from kforge_torchworker import judge, spec  # noqa: E402
from kforge_torchworker.host import KernelModule  # noqa: E402


def load(path, name):
    s = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(s)
    sys.modules[name] = m
    s.loader.exec_module(m)
    return m


def main():
    p = argparse.ArgumentParser()
    p.add_argument('task_dir')
    p.add_argument('candidate')
    p.add_argument('--runs', type=int, default=5)
    a = p.parse_args()
    device = torch.device('cuda:0')
    raw = json.load(open(os.path.join(a.task_dir, 'task.json')))
    task = spec.TorchTask(raw)
    ref_mod = load(os.path.join(a.task_dir, 'reference.py'), 'kforge_reference')
    init = list(ref_mod.get_init_inputs()) if hasattr(ref_mod, 'get_init_inputs') else []
    torch.manual_seed(1)
    reference = ref_mod.Model(*init).to(device).eval()
    state = reference.state_dict()
    path = os.path.join(a.task_dir, a.candidate)
    if path.endswith('.py'):
        cand = load(path, 'kforge_candidate').ModelNew(*init)
        cand.load_state_dict(state, strict=True)
        cand = cand.to(device).eval()
        call = lambda args: cand(*args)  # noqa: E731
    else:
        outputs = [dict(o, torch_dtype=str(spec.DTYPES[o['dtype']]).replace('torch.', '')) for o in task.outputs]
        setup = {'nvcc': judge.nvcc(), 'abi_include': judge.abi_include(), 'outputs': outputs,
                 'params': task.params, 'arg_names': [x['name'] for x in task.args],
                 'nvcc_flags': [str(f) for f in raw.get('nvcc_flags', [])]}
        os.chdir(os.environ.get('TMPDIR', '/tmp'))
        km = KernelModule(path, setup, device)
        names = [n for n, _ in reference.named_parameters()] + [n for n, _ in reference.named_buffers()]
        km.load_state(list(state), list(state.values()), names)
        call = None  # bound per run, before its range: the outputs' allocation and poison fill are not the kernel's
    args = task.make_args(12345, 'cuda:0')
    flush = torch.empty(2 * torch.cuda.get_device_properties(device).L2_cache_size // 4, device=device)
    def bound():  # what runs inside a range: the call alone, as the trace pass brackets it
        if call is not None:
            return lambda: call(args)
        return km.bind(*args)

    with torch.no_grad():
        bound()()  # first launches (lazy module loading) outside the ranges
        torch.cuda.synchronize()
        for _ in range(a.runs):
            run = bound()
            flush.sum()
            torch.cuda.synchronize()
            torch.cuda.nvtx.range_push('kforge_run')
            run()
            torch.cuda.synchronize()
            torch.cuda.nvtx.range_pop()
    print('ran %d runs of %s' % (a.runs, a.candidate))


if __name__ == '__main__':
    main()
