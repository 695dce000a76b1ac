#!/usr/bin/env python3
"""The adversarial suite's torch modules (tests/gpu/adversarial) on a GPU without the judge: each case's ModelNew
and its task's reference Model at the task's sizes, called as the module host calls them (on a stream of its own,
under no_grad, the result copied into an output buffer on that stream), with the reference's moved weights loaded
into both. Per module: whether three successive calls on fresh declared inputs match the reference, then each edge
range (scaled x16, x256, x4096, special values as inputrange.h draws them) where the reference stays finite, and
both sides' median ms per call (events on the stream, 10 calls). Says nothing about the judge's verdict: it shows
what each module does, so a row of the suite that goes wrong can be told from a module that does not do what its
header says. Modules with side effects outside their process (escape, orphan) are skipped.
Usage: torch_cases_probe.py [--case FILE]... [--device 0]"""

import argparse
import contextlib
import importlib.util
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
ADV = os.path.join(ROOT, 'tests', 'gpu', 'adversarial')
SKIP = {'t_escape_files.py', 't_escape_dev_shm.py', 't_setsid_orphan.py'}


def load(path, tag):
    spec = importlib.util.spec_from_file_location(tag, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--case', action='append', default=[])
    ap.add_argument('--device', default='0', help='a CUDA device index, or cpu (to try the probe itself)')
    ap.add_argument('--one', nargs=2, metavar=('FILE', 'TASK'), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:  # one module per process: some patch torch or set process-wide flags that would reach the reference
        import torch
        allclose = torch.allclose
        dev = torch.device('cpu') if a.device == 'cpu' else torch.device('cuda', int(a.device))
        if dev.type == 'cuda':
            torch.cuda.set_device(dev)
        try:
            print(probe(torch, allclose, dev, *a.one))
        except Exception as e:  # noqa: BLE001 - the probe reports, it does not judge
            print('probe failed: %s: %s' % (type(e).__name__, str(e).splitlines()[0] if str(e) else ''))
        return 0
    with open(os.path.join(ADV, 'cases.json'), encoding='utf-8') as f:
        cases = json.load(f)['cases']
    subprocess.run([sys.executable, '-c', 'import torch; print("torch", torch.__version__, %s)'
                    % ('"cpu"' if a.device == 'cpu' else 'torch.cuda.get_device_name(%d)' % int(a.device))])
    for case in cases:
        name, task = case['file'], case['task']
        if not name.endswith('.py') or name in SKIP or (a.case and name not in a.case):
            continue
        t0 = time.monotonic()
        p = subprocess.run([sys.executable, os.path.abspath(__file__), '--device', str(a.device), '--one', name, task],
                           capture_output=True, text=True, timeout=600)
        lines = p.stdout.strip().splitlines()
        line = lines[-1] if lines else 'exit %d: %s' % (p.returncode, p.stderr.strip()[-300:])
        print('%-28s %-18s %6.1fs  %s' % (name, task, time.monotonic() - t0, line), flush=True)


def probe(torch, allclose, dev, name, task):
    folder = os.path.join(ROOT, 'resources', 'tasks', task)
    with open(os.path.join(folder, 'task.json'), encoding='utf-8') as f:
        spec = json.load(f)
    init = spec.get('init_inputs', [])
    torch.manual_seed(0)
    reference = load(os.path.join(folder, spec.get('reference', 'reference.py')), 'ref_' + task).Model(*init).to(dev)
    try:
        candidate = load(os.path.join(ADV, name), 'cand_' + name[:-3]).ModelNew(*init).to(dev)
    except Exception as e:  # noqa: BLE001
        return 'construct raised %s: %s' % (type(e).__name__, str(e).splitlines()[0] if str(e) else '')
    state = reference.state_dict()
    for key, value in state.items():
        if value.is_floating_point():
            state[key] = value + 0.5 * torch.randn_like(value) + 0.25
    reference.load_state_dict(state)
    candidate.load_state_dict(state)
    reference.eval()
    candidate.eval()
    sizes = dict(spec.get('params', {}))
    tol = spec.get('tolerance', {}).get('f32', {'atol': 1e-4, 'rtol': 1e-4})
    stream = torch.cuda.Stream(dev) if dev.type == 'cuda' else None

    def on_stream():
        return torch.cuda.stream(stream) if stream is not None else contextlib.nullcontext()

    def sync():
        if stream is not None:
            stream.synchronize()
    fmax = torch.finfo(torch.float32).max

    def inputs(scale=1.0, special=False):
        out = []
        for t in spec['inputs']:
            shape = [d if isinstance(d, int) else int(eval(d, {}, dict(sizes))) for d in t['shape']]  # noqa: S307
            init = t.get('init', {})
            if init.get('dist') == 'uniform':
                x = torch.rand(shape, device=dev) * (init.get('high', 1) - init.get('low', 0)) * scale \
                    + init.get('low', 0) * scale
                values = [0.0, 1.17549435e-38, 1e-45, fmax / 2]
            else:
                x = torch.randn(shape, device=dev) * init.get('std', 1) * scale + init.get('mean', 0)
                values = [0.0, -0.0, 1.17549435e-38, -1.17549435e-38, 1e-45, -1e-45, fmax / 2, -fmax / 2]
            if special:
                mask = torch.rand(shape, device=dev) < 1 / 32
                pick = torch.tensor(values, device=dev)[torch.randint(0, len(values), shape, device=dev)]
                x = torch.where(mask, pick, x)
            out.append(x)
        return out

    def call(model, args, out=None):
        with torch.no_grad(), on_stream():
            got = model(*args)
            if out is None:
                out = torch.empty(got.shape, dtype=got.dtype, device=dev) if isinstance(got, torch.Tensor) else None
            if out is not None:
                if got.dtype != out.dtype or got.shape != out.shape:
                    raise TypeError('result %s %s, buffer %s %s' % (got.dtype, tuple(got.shape), out.dtype,
                                                                   tuple(out.shape)))
                out.copy_(got)
        sync()
        return out

    peaks = {}

    def compare(args):
        expected = call(reference, [x.clone() for x in args])
        buffer = torch.full_like(expected, float('nan'))
        try:
            call(candidate, args, buffer)
        except Exception as e:  # noqa: BLE001
            return None, 'raised %s: %s' % (type(e).__name__, str(e).splitlines()[0] if str(e) else '')
        if not torch.isfinite(expected).all():
            return None, 'beyond'
        peak = expected.abs().max().item()
        peaks.setdefault('declared', peak or 1.0)
        atol = tol['atol'] * max(1.0, peak / peaks['declared'])  # the judge's rule for edge rounds
        ok = allclose(buffer, expected, atol=atol, rtol=tol['rtol'], equal_nan=True)
        return ok, '%.3g' % (buffer - expected).abs().max().item()

    parts = []
    declared = [compare(inputs()) for _ in range(3)]
    parts.append('declared ' + ','.join('ok' if ok else 'WRONG(%s)' % d for ok, d in declared))
    if all(ok for ok, _ in declared):
        for label, kw in (('x16', {'scale': 16.0}), ('x256', {'scale': 256.0}), ('x4096', {'scale': 4096.0}),
                          ('special', {'special': True})):
            ok, detail = compare(inputs(**kw))
            parts.append('%s %s' % (label, 'skipped (reference not finite)' if detail == 'beyond' else
                                    'ok' if ok else 'WRONG(%s)' % detail))
            if detail == 'beyond' or not ok:
                break

    def median_ms(model):
        args = inputs()
        call(model, args)
        times = []
        for _ in range(10):
            if stream is None:
                t0 = time.perf_counter()
                call(model, args)
                times.append((time.perf_counter() - t0) * 1e3)
                continue
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            with torch.no_grad(), on_stream():
                e0.record(stream)
                got = model(*args)
                if isinstance(got, torch.Tensor):
                    torch.empty(got.shape, dtype=got.dtype, device=dev).copy_(got)
                e1.record(stream)
            stream.synchronize()
            times.append(e0.elapsed_time(e1))
        return sorted(times)[len(times) // 2]
    try:
        ref_ms, cand_ms = median_ms(reference), median_ms(candidate)
        parts.append('ref %.4f ms, cand %.4f ms (%.2fx)' % (ref_ms, cand_ms, ref_ms / cand_ms if cand_ms else 0))
    except Exception as e:  # noqa: BLE001
        parts.append('timing raised %s' % type(e).__name__)
    return '; '.join(parts)


if __name__ == '__main__':
    sys.exit(main())
