#!/usr/bin/env python3
"""Turnaround of kforge-torch-worker (issue 13), warm worker: the client's wall time of one `evaluate`, from the
request to the result, per candidate form, with the client's own time between evaluations (--settle, in which
the judge boots spare hosts and ends the last evaluation's) left out. Prints figures; not a pass/fail test.

  torch_turnaround.py [--device 0] [--settle 3] [--reps 3]

Forms: a ModelNew without inline CUDA (torch_diag_matmul broadcast.py); a KForge .cu on a compile miss (rowscale.cu
with a new comment each time: the host's nvcc runs); a load_inline ModelNew (tests/torchworker/data's
matmul_relu_inline.py, and diag_rowscale_inline.py on the diag task) on a build miss (a fresh cache directory) and
then on hits. Each row: wall s, the
evaluation's phases_s and load_parts_s, whether the reference host was reused."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKER = os.path.join(ROOT, 'torchworker', 'kforge-torch-worker')


class Worker:
    def __init__(self, device, env):
        # KFORGE_TURNAROUND_PROFILE=FILE: the judge runs under cProfile, its statistics written to FILE at the end
        profile = os.environ.get('KFORGE_TURNAROUND_PROFILE')
        prefix = [sys.executable, '-m', 'cProfile', '-o', profile] if profile else [sys.executable]
        self.p = subprocess.Popen(prefix + [WORKER, '--device', device], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env)
        self.p.stdout.readline()

    def ask(self, **r):
        self.p.stdin.write(json.dumps(r) + '\n')
        self.p.stdin.flush()
        return json.loads(self.p.stdout.readline())

    def close(self):
        self.ask(op='shutdown')
        self.p.wait(30)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--device', default='0')
    ap.add_argument('--settle', type=float, default=3.0)
    ap.add_argument('--reps', type=int, default=3)
    ap.add_argument('--forms', default='modelnew,cu,so,tiny,inline', help='the forms to run (comma-separated)')
    ap.add_argument('--tasks', default='', help='built-in torch tasks (comma-separated, or "all"): each task\'s '
                    '.cu variant (compiled apart, as the .so row) and its ModelNew variants, instead of --forms')
    ap.add_argument('--options', default='{}', help='evaluation options (JSON), e.g. \'{"trace": false}\'')
    a = ap.parse_args()
    options = json.loads(a.options)
    forms = set(a.forms.split(','))
    work = tempfile.mkdtemp(prefix='kforge-turnaround-')
    env = dict(os.environ, KFORGE_TORCH_CACHE=os.path.join(work, 'cache'))
    w = Worker(a.device, env)
    diag = os.path.join(ROOT, 'resources', 'tasks', 'torch_diag_matmul')
    data = os.path.join(ROOT, 'tests', 'torchworker', 'data')
    sys.path.insert(0, os.path.join(ROOT, 'tests', 'torchworker'))
    diag_task = json.load(open(os.path.join(diag, 'task.json')))
    rowscale = open(os.path.join(diag, 'variants', 'rowscale.cu')).read()
    print('%-28s %4s %7s  %s' % ('form', 'rep', 'wall s', 'phases_s / load_parts_s / reference reused'))

    def run(form, rep, ref, cand, task):
        w.ask(op='load', slot='reference', path=ref)
        w.ask(op='load', slot='candidate', path=cand)
        time.sleep(a.settle)
        t0 = time.monotonic()
        r = w.ask(op='evaluate', task=task, options=options)
        wall = time.monotonic() - t0
        res = r.get('result', {})
        summary.setdefault(form, []).append(wall)
        print('%-28s %4d %7.2f  %s %s; %s / %s / %s%s' % (
            form, rep, wall, res.get('verdict'), '%.2fx' % res['timing']['speedup'] if res.get('timing') else '',
            res.get('phases_s'), res.get('load_parts_s'), (res.get('isolation') or {}).get('reference', {}).get(
                'reused'), (' build_cache %s' % {k: v for k, v in res['build_cache'].items() if k != 'extensions'})
            if res.get('build_cache') else ''), flush=True)
        t = res.get('timing') or {}
        if t:  # what the speedup rests on: each side's median, the host's and the judge's figures, the flags
            print('    %s; batches %s of %s/%s calls, stopped_by %s; parts_s %s; flags %s' % (
                '; '.join('%s median %.4g ms (host %s, judge %s)' % (
                    side, t[side]['median_ms'], t[side].get('host_ms'), t[side].get('external_ms'))
                    for side in ('reference', 'candidate') if side in t),
                t.get('batches'), t.get('reference_batch_calls'), t.get('batch_calls'),
                (t.get('adaptive') or {}).get('stopped_by'), t.get('parts_s'), res.get('flags')), flush=True)
            ad = t.get('adaptive') or {}
            print('    half-widths: reference %s, candidate %s; per-call spread (p90/p10): reference %s, candidate %s' % (
                (ad.get('reference') or {}).get('half_width'), (ad.get('candidate') or {}).get('half_width'),
                *['%.4f' % (t[x]['p90_ms'] / t[x]['p10_ms']) if t[x].get('p10_ms') else None
                  for x in ('reference', 'candidate')]), flush=True)
        return wall

    summary = {}
    if a.tasks:
        try:
            run_tasks(a, run, work, summary)
        finally:
            w.close()
        return
    try:
        run('warm-up (ModelNew)', 0, os.path.join(diag, 'reference.py'),
            os.path.join(diag, 'variants', 'broadcast.py'), diag_task)
        for i in range(a.reps if 'modelnew' in forms else 0):
            run('ModelNew broadcast.py', i + 1, os.path.join(diag, 'reference.py'),
                os.path.join(diag, 'variants', 'broadcast.py'), diag_task)
        for i in range(a.reps if 'cu' in forms else 0):
            path = os.path.join(work, 'rowscale_%d.cu' % i)
            with open(path, 'w') as f:
                f.write('// turnaround %d %f\n' % (i, time.time()) + rowscale)
            run('.cu rowscale (nvcc miss)', i + 1, os.path.join(diag, 'reference.py'), path, diag_task)
        # The product's path for a .cu: KForge's compiler (the workbench, kforge-cli) builds the .so on the client
        # and sends it; here plain nvcc builds it before the request, its time printed apart from the evaluation's.
        inc = os.path.join(ROOT, 'core', 'runtime', 'include')
        for i in range(a.reps if 'so' in forms else 0):
            src, so = os.path.join(work, 'rowscale_so_%d.cu' % i), os.path.join(work, 'rowscale_%d.so' % i)
            with open(src, 'w') as f:
                f.write('// turnaround %d %f\n' % (i, time.time()) + rowscale)
            t0 = time.monotonic()
            subprocess.run(['nvcc', '-O3', '-lineinfo', '-arch=sm_90', '-shared', '-Xcompiler', '-fPIC', '-I' + inc,
                            src, '-o', so], check=True)
            print('    (plain nvcc of the .so: %.2f s, not in the row below)' % (time.monotonic() - t0))
            run('.so rowscale (compiled)', i + 1, os.path.join(diag, 'reference.py'), so, diag_task)
        from test_torchworker import task_for  # the worker test's own task of matmul_relu.py
        spec = task_for('matmul_relu')
        for i in range(a.reps + 1 if 'tiny' in forms else 0):
            run('load_inline ' + ('(build miss)' if i == 0 else '(build hit)'), i,
                os.path.join(data, 'matmul_relu.py'), os.path.join(data, 'matmul_relu_inline.py'), spec)
        # inline CUDA on the diag task: a kernel of 0.04 ms, where the timing is not the tiny task's 14-26 batches
        # (nvcc over torch's headers: the build miss needs more than the task's timeout)
        long_task = dict(diag_task, timeout_s=max(300, diag_task.get('timeout_s', 0)))
        for i in range(a.reps + 1 if 'inline' in forms else 0):
            run('diag load_inline ' + ('(build miss)' if i == 0 else '(build hit)'), i,
                os.path.join(diag, 'reference.py'), os.path.join(data, 'diag_rowscale_inline.py'),
                long_task)  # one task for all rows: the hits reuse the miss's reference host
    finally:
        w.close()


def compile_so(src, so):
    """Plain nvcc of a .cu candidate into the .so the product's client would send (its time printed apart)."""
    inc = os.path.join(ROOT, 'core', 'runtime', 'include')
    t0 = time.monotonic()
    subprocess.run(['nvcc', '-O3', '-lineinfo', '-arch=sm_90', '-shared', '-Xcompiler', '-fPIC', '-I' + inc,
                    src, '-o', so], check=True)
    return time.monotonic() - t0


def run_tasks(a, run, work, summary):
    """--tasks: per built-in torch task, its .cu variant as a compiled .so (a fresh source each rep) and each
    ModelNew variant, a.reps times after one warm-up evaluation; a summary of the median wall per row last."""
    tasks_dir = os.path.join(ROOT, 'resources', 'tasks')
    names = sorted(n for n in os.listdir(tasks_dir) if n.startswith('torch_')) if a.tasks == 'all' else \
        a.tasks.split(',')
    for name in names:
        folder = os.path.join(tasks_dir, name)
        task = json.load(open(os.path.join(folder, 'task.json')))
        ref = os.path.join(folder, 'reference.py')
        variants = sorted(os.listdir(os.path.join(folder, 'variants')))
        cus = [v for v in variants if v.endswith('.cu')]
        pys = [v for v in variants if v.endswith('.py')]
        if pys:
            run('%s warm-up' % name, 0, ref, os.path.join(folder, 'variants', pys[0]), task)
        for v in cus:
            source = open(os.path.join(folder, 'variants', v)).read()
            for i in range(a.reps):
                src, so = os.path.join(work, '%s_%d.cu' % (name, i)), os.path.join(work, '%s_%d.so' % (name, i))
                with open(src, 'w') as f:
                    f.write('// turnaround %d %f\n' % (i, time.time()) + source)
                print('    (plain nvcc of the .so: %.2f s, not in the row below)' % compile_so(src, so))
                run('%s %s' % (name, v), i + 1, ref, so, task)
        for v in pys:
            for i in range(a.reps):
                run('%s %s' % (name, v), i + 1, ref, os.path.join(folder, 'variants', v), task)
    print('\nmedian wall s per row (reps):')
    for form, walls in summary.items():
        if 'warm-up' not in form:
            print('  %-52s %6.2f  (%s)' % (form, sorted(walls)[len(walls) // 2],
                                           ' '.join('%.2f' % x for x in walls)))


if __name__ == '__main__':
    main()
