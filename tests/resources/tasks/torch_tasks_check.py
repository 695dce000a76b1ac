#!/usr/bin/env python3
"""Checks the built-in torch tasks (resources/tasks/*/task.json with "kind": "torch").

  torch_tasks_check.py import TASKS_DIR (--cli KFORGE_CLI | --discover SCRIPT)
      every torch task's task.json is what `kforge-cli import` writes today from its reference.py: the
      reference is imported again (as <task>.py, so the name comes out the same) into a temporary folder and
      every field is compared, except "variants" (added by hand after the import) and derived.seconds.
      "flops" and derived.flops are compared on every torch (kforge_torch_flops.py counts the same way on torch
      1.13 and 2.x); derived.torch is not.
  torch_tasks_check.py evaluate TASKS_DIR --worker KFORGE_WORKER --so SO_DIR [--device N] [--task NAME]...
      every variant through kforge-worker (the one judge: a ModelNew in its module host, a .cu as the shared
      object SO_DIR/<task>/<variant>.so that tasks_compile_<task> or run_check.sh built) against its task's
      reference.py: the verdict must be expect.verdict and the speedup at least expect.min_speedup; a degenerate
      task must be flagged degenerate_output. Prints one line per variant (verdict, speedup). Needs a GPU: exit
      77 (SKIP) when the worker reports none.
Exit status: 0 when all agree, 1 otherwise, 77 (SKIP) when this python has no torch or there is no torch task.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import torch  # noqa: F401 - import runs the discovery with this python
except ImportError:
    print('SKIP: no torch in %s (Debian: apt install python3-torch)' % sys.executable)
    sys.exit(77)


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


class Worker:
    def __init__(self, binary, device):
        self.proc = subprocess.Popen([binary, '--device', str(device)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.ready = json.loads(self.proc.stdout.readline())
        self.next_id = 0

    def ask(self, **req):
        self.next_id += 1
        req['id'] = self.next_id
        self.proc.stdin.write(json.dumps(req) + '\n')
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError('kforge-worker ended (exit status %s)' % self.proc.wait())
            reply = json.loads(line)
            if reply.get('event') != 'progress':
                return reply

    def close(self):
        self.ask(op='shutdown')
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def check_evaluate(tasks, args):
    worker = Worker(args.worker, args.device)
    info = worker.ask(op='device_info')
    if not info.get('ok'):
        worker.close()
        print('SKIP: kforge-worker --device %s has no GPU: %s' % (args.device, info.get('error', {}).get('message')))
        return 77
    print('device: %s; torch: %s' % (info['device'].get('name'), info.get('torch')))
    failures, rows = 0, 0
    print('%-34s %-18s %-14s %-10s %9s %7s  %s' % ('task', 'variant', 'expect', 'verdict', 'speedup', 'wall_s',
                                                  'ok'))
    try:
        for name, folder, task in tasks:
            r = worker.ask(op='load', slot='reference', path=os.path.join(folder, 'reference.py'))
            if not r.get('ok'):
                print('FAIL %s: the reference does not load: %s' % (name, r))
                failures += 1
                continue
            for v in task['variants']:
                expect = v.get('expect', {})
                want = expect.get('verdict', 'correct')
                stem = os.path.splitext(os.path.basename(v['file']))[0]
                label = v.get('label', stem)
                path = os.path.join(folder, v['file'])
                if v['file'].endswith('.cu'):  # kforge-worker loads what KForge's compiler built from it
                    path = os.path.join(args.so, name, stem + '.so')
                r = worker.ask(op='load', slot='candidate', path=path)
                if not r.get('ok'):
                    print('FAIL %s %s: load %s: %s' % (name, label, path, r))
                    failures += 1
                    continue
                started = time.monotonic()
                r = worker.ask(op='evaluate', task=task, options={})
                took = time.monotonic() - started
                result = r.get('result', {}) if r.get('ok') else {'verdict': 'error', 'message': str(r)}
                verdict = result.get('verdict')
                speedup = (result.get('timing') or {}).get('speedup')
                problems = []
                if verdict != want:
                    problems.append('verdict %s, expected %s: %s' % (verdict, want, result.get('message')))
                if 'min_speedup' in expect and (speedup or 0) < expect['min_speedup']:
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
                trace = result.get('trace') or {}
                print('    flags %s; trace %s' % (result.get('flags'), 'yes' if trace.get('available', bool(trace))
                                                  else trace.get('problem', 'none')))
    finally:
        worker.close()
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
    parser.add_argument('--worker', help='kforge-worker, for evaluate')
    parser.add_argument('--so', help='where the .cu variants were compiled (<dir>/<task>/<variant>.so), for evaluate')
    parser.add_argument('--device', default='0')
    parser.add_argument('--task', action='append', default=[], help='only this task (repeatable)')
    args = parser.parse_args()
    tasks = torch_tasks(args.tasks_dir, args.task)
    if not tasks:
        print('SKIP: no torch task in %s' % args.tasks_dir)
        return 77
    if args.mode == 'import':
        if not args.cli and not args.discover:
            parser.error('import needs --cli or --discover')
        return check_import(tasks, args)
    if not args.worker or not args.so:
        parser.error('evaluate needs --worker and --so')
    return check_evaluate(tasks, args)


if __name__ == '__main__':
    sys.exit(main())
