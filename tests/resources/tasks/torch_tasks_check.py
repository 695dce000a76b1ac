#!/usr/bin/env python3
"""Checks the built-in torch tasks (resources/tasks/*/task.json with "kind": "torch").

  torch_tasks_check.py import TASKS_DIR (--cli KFORGE_CLI | --discover SCRIPT)
      every torch task's task.json is what `kforge-cli import` writes today from its reference.py: the
      reference is imported again (as <task>.py, so the name comes out the same) into a temporary folder and
      every field is compared, except "variants" (added by hand after the import) and derived.seconds.
      "flops" and derived.flops are compared on every torch (kforge_torch_flops.py counts the same way on torch
      1.13 and 2.x); derived.torch is not.
  torch_tasks_check.py evaluate TASKS_DIR --worker KFORGE_TORCH_WORKER --device cpu|N [--task NAME]...
      every variant through kforge-torch-worker against its task's reference: the verdict must be
      expect.verdict and, on a GPU, the speedup at least expect.min_speedup; a degenerate task must be flagged
      degenerate_output. Prints one line per variant (verdict, speedup). On the CPU the tasks run at the small
      sizes of CPU_PARAMS: the module's size constants in a copy of reference.py and the task's params are
      both replaced (shapes are expressions over the params, so they follow), and .cu variants are left to the
      GPU run (they are compiled by the tasks_compile_<task> tests).
Exit status: 0 when all agree, 1 otherwise, 77 (SKIP) when this python has no torch or there is no torch task.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import torch
except ImportError:
    print('SKIP: no torch in %s (Debian: apt install python3-torch)' % sys.executable)
    sys.exit(77)

# Sizes small enough for a CPU run of a few seconds per candidate, keeping what the module needs (the groups
# of GroupNorm divide out_channels, the convolution's input is larger than its kernel, the embedding table
# keeps every id the task's "integers" init can draw).
CPU_PARAMS = {
    'torch_diag_matmul': {'N': 256, 'M': 192},
    'torch_conv3d_groupnorm_min_clamp': {'batch_size': 2, 'depth': 6, 'height': 10, 'width': 12},
    'torch_matmul': {'M': 128, 'K': 96, 'N': 160},
    'torch_softmax': {'batch_size': 64, 'dim': 512},
    'torch_layernorm': {'batch_size': 64, 'features': 512},
    'torch_gemm_bias_gelu': {'batch_size': 64, 'in_features': 128, 'out_features': 256},
    'torch_row_sum': {'batch_size': 64, 'dim': 1024},
    'torch_embedding': {'embedding_dim': 16, 'batch_size': 4, 'seq_len': 64},
}
CPU_OPTIONS = {'trials': 3, 'warmup': 2, 'min_runs': 5, 'min_time_ms': 20, 'max_runs': 50}


def torch_tasks(tasks_dir, only=()):
    found = []
    for name in sorted(os.listdir(tasks_dir)):
        path = os.path.join(tasks_dir, name, 'task.json')
        if not os.path.isfile(path):
            continue
        with open(path) as f:
            task = json.load(f)
        if task.get('kind') == 'torch' and (not only or name in only):
            found.append((name, os.path.join(tasks_dir, name), task))
    return found


def check_import(tasks, args):
    work = tempfile.mkdtemp(prefix='kforge-torch-tasks-')
    try:
        src, out = os.path.join(work, 'src'), os.path.join(work, 'out')
        os.makedirs(src)
        for name, folder, _ in tasks:
            shutil.copyfile(os.path.join(folder, 'reference.py'), os.path.join(src, name + '.py'))
        fresh = {}
        if args.cli:
            done = subprocess.run([args.cli, 'import', src, '--out', out, '--python', sys.executable],
                                  capture_output=True, text=True, timeout=600)
            print(done.stdout.strip())
            if done.returncode != 0:
                print('FAIL: kforge-cli import exit status %d: %s' % (done.returncode, done.stderr.strip()))
                return 1
            for name, _, _ in tasks:
                with open(os.path.join(out, name, 'task.json')) as f:
                    fresh[name] = json.load(f)
        else:
            for name, _, _ in tasks:
                done = subprocess.run([sys.executable, args.discover, os.path.join(src, name + '.py')],
                                      capture_output=True, text=True, timeout=300)
                fresh[name] = json.loads(done.stdout) if done.returncode == 0 else {'error': done.stderr}
        failures = 0
        for name, folder, task in tasks:
            new = fresh[name]
            recorded = dict(task)
            if 'variants' not in recorded:
                print('FAIL %s: task.json has no "variants"' % name)
                failures += 1
            recorded.pop('variants', None)
            old_derived = dict(recorded.pop('derived', {}))
            new_derived = dict(new.pop('derived', {}))
            for d in (old_derived, new_derived):
                d.pop('seconds', None)
            old_derived.pop('torch', None)  # 1.13.0a0 vs 2.x count the same way
            new_derived.pop('torch', None)
            recorded['derived'], new['derived'] = old_derived, new_derived
            diffs = sorted(k for k in set(recorded) | set(new) if recorded.get(k) != new.get(k))
            if diffs:
                failures += 1
                for k in diffs:
                    print('FAIL %s: %s: task.json has %s, kforge-cli import writes %s'
                          % (name, k, json.dumps(recorded.get(k)), json.dumps(new.get(k))))
            else:
                print('ok   %s: task.json is what the import writes (flops %s)' % (name, json.dumps(new.get('flops'))))
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


SIZE_LINE = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([-+0-9.eE]+)\s*$')


def scaled_copy(name, folder, task, work):
    """The task folder at CPU_PARAMS's sizes: reference.py's size constants and task.json's params replaced."""
    sizes = CPU_PARAMS.get(name)
    if sizes is None:
        raise KeyError('%s: no CPU sizes in CPU_PARAMS of %s' % (name, os.path.basename(__file__)))
    dest = os.path.join(work, name)
    shutil.copytree(folder, dest)
    with open(os.path.join(folder, 'reference.py')) as f:
        lines = f.read().split('\n')
    replaced = set()
    for i, line in enumerate(lines):
        m = SIZE_LINE.match(line)
        if m and m.group(1) in sizes:
            lines[i] = '%s = %r' % (m.group(1), sizes[m.group(1)])
            replaced.add(m.group(1))
    missing = set(sizes) - replaced
    unknown = set(sizes) - set(task['params'])
    if missing or unknown:
        raise KeyError('%s: CPU_PARAMS names %s, not size constants of reference.py and params of task.json'
                       % (name, sorted(missing | unknown)))
    with open(os.path.join(dest, 'reference.py'), 'w') as f:
        f.write('\n'.join(lines))
    small = dict(task)
    small['params'] = dict(task['params'], **sizes)
    return dest, small


class Worker:
    def __init__(self, script, device):
        self.proc = subprocess.Popen([sys.executable, script, '--device', device], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.ready = json.loads(self.proc.stdout.readline())
        self.next_id = 0

    def ask(self, **req):
        self.next_id += 1
        req['id'] = self.next_id
        self.proc.stdin.write(json.dumps(req) + '\n')
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError('kforge-torch-worker ended (exit status %s)' % self.proc.wait())
        return json.loads(line)

    def close(self):
        self.ask(op='shutdown')
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def check_evaluate(tasks, args):
    on_cpu = args.device == 'cpu'
    if not on_cpu and not torch.cuda.is_available():
        print('SKIP: --device %s but torch %s sees no CUDA device' % (args.device, torch.__version__))
        return 77
    work = tempfile.mkdtemp(prefix='kforge-torch-eval-')
    worker = Worker(args.worker, args.device)
    failures, rows = 0, 0
    print('%-34s %-18s %-14s %-10s %9s %7s  %s' % ('task', 'variant', 'expect', 'verdict', 'speedup', 'wall_s',
                                                  'ok'))
    try:
        for name, folder, task in tasks:
            if on_cpu:
                folder, task = scaled_copy(name, folder, task, work)
            r = worker.ask(op='load', slot='reference', path=os.path.join(folder, 'reference.py'))
            if not r.get('ok'):
                print('FAIL %s: the reference does not load: %s' % (name, r))
                failures += 1
                continue
            for v in task['variants']:
                expect = v.get('expect', {})
                want = expect.get('verdict', 'correct')
                label = v.get('label', os.path.splitext(os.path.basename(v['file']))[0])
                if on_cpu and v['file'].endswith('.cu'):
                    print('%-34s %-18s %-14s %-10s %9s %7s  %s' % (name, label, want, '-', '-', '-',
                                                                    'not run (a .cu candidate needs a GPU)'))
                    continue
                r = worker.ask(op='load', slot='candidate', path=os.path.join(folder, v['file']))
                if not r.get('ok'):
                    print('FAIL %s %s: load: %s' % (name, label, r))
                    failures += 1
                    continue
                if args.settle > 0:  # the client's own time between evaluations (compile, the model's answer),
                    time.sleep(args.settle)  # in which the worker boots the next hosts; not counted in wall_s
                started = time.monotonic()
                r = worker.ask(op='evaluate', task=task, options=CPU_OPTIONS if on_cpu else {})
                took = time.monotonic() - started
                result = r.get('result', {}) if r.get('ok') else {'verdict': 'error', 'message': str(r)}
                verdict = result.get('verdict')
                speedup = (result.get('timing') or {}).get('speedup')
                problems = []
                if verdict != want:
                    problems.append('verdict %s, expected %s: %s' % (verdict, want, result.get('message')))
                if not on_cpu and 'min_speedup' in expect and (speedup or 0) < expect['min_speedup']:
                    problems.append('speedup %.2fx below %gx' % (speedup or 0, expect['min_speedup']))
                if verdict == 'correct' and task.get('degenerate') and \
                        'degenerate_output' not in result.get('flags', []):
                    problems.append('a degenerate task without the degenerate_output flag')
                rows += 1
                failures += bool(problems)
                want_text = want + ('>=%gx' % expect['min_speedup'] if 'min_speedup' in expect else '')
                print('%-34s %-18s %-14s %-10s %9s %7.2f  %s' % (
                    name, label, want_text, verdict, '%.2fx' % speedup if speedup is not None else '-', took,
                    'yes' if not problems else 'NO: ' + '; '.join(problems)))
                if not on_cpu:
                    timing = result.get('timing') or {}
                    adaptive = timing.get('adaptive') or {}
                    exchange = ((result.get('isolation') or {}).get('candidate') or {}).get('exchange', '')
                    print('    phases %s, batches %s, stopped_by %s (half-widths ref %s cand %s), %s' % (
                        result.get('phases_s'), timing.get('batches'), adaptive.get('stopped_by'),
                        (adaptive.get('reference') or {}).get('half_width'),
                        (adaptive.get('candidate') or {}).get('half_width'),
                        'ipc' if 'IPC' in exchange else 'pipe'))
                    trace = result.get('trace') or {}
                    print('    load_parts %s, reference reused %s; trace: %s' % (
                        result.get('load_parts_s'), ((result.get('isolation') or {}).get('reference') or {}).get(
                            'reused'), 'candidate kernels %.4f ms per run (%s launches), reference %.4f ms%s' % (
                            trace['candidate']['kernel_time_ms']['median'], trace['candidate']['launches_per_run'],
                            trace['reference']['kernel_time_ms']['median'],
                            ' (kept)' if trace.get('reference_reused') else '')
                        if trace.get('available') else trace.get('problem')))
                    cand = timing.get('candidate') or {}
                    if timing.get('external'):
                        print('    candidate per call: host %s ms, judge %s ms; flags %s' % (
                            cand.get('host_ms'), cand.get('external_ms'), result.get('flags')))
    finally:
        worker.close()
        shutil.rmtree(work, ignore_errors=True)
    if rows == 0:
        print('FAIL: no variant was evaluated')
        return 1
    print('ALL AS EXPECTED' if not failures else '%d variant(s) NOT as expected' % failures)
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('mode', choices=('import', 'evaluate'))
    parser.add_argument('tasks_dir')
    parser.add_argument('--cli', help='kforge-cli, for import')
    parser.add_argument('--discover', help='kforge_torch_discover.py, for import without kforge-cli')
    parser.add_argument('--worker', help='kforge-torch-worker, for evaluate')
    parser.add_argument('--device', default='cpu')
    parser.add_argument('--task', action='append', default=[], help='only this task (repeatable)')
    parser.add_argument('--settle', type=float, default=0.0,
                        help='seconds to wait before each evaluate, not counted (a client busy between evaluations)')
    args = parser.parse_args()
    tasks = torch_tasks(args.tasks_dir, args.task)
    if not tasks:
        print('SKIP: no torch task in %s' % args.tasks_dir)
        return 77
    if args.mode == 'import':
        if not args.cli and not args.discover:
            parser.error('import needs --cli or --discover')
        return check_import(tasks, args)
    if not args.worker:
        parser.error('evaluate needs --worker')
    return check_evaluate(tasks, args)


if __name__ == '__main__':
    sys.exit(main())
