#!/usr/bin/env python3
"""Drives kforge-worker (issue 34: the one judge) through its protocol on torch tasks; standard library only.

The protocol as docs/worker-protocol.md gives it ("Command line", "Messages"): JSON lines on the worker's stdin and
stdout, a ready line first, each request with an id and a fresh token that every line answering it carries.

  one_judge_driver.py [--worker PATH] [--device N] [--torch-python PATH] builtin [--task NAME]... [--options JSON]
      every built-in torch task (resources/tasks/torch_*), each variant task.json lists, evaluated with trace on and
      metrics on the first variant of each task (--metrics-all: on every one): verdict, speedup, flags, whether
      trace and metrics came back, against the variant's expect.
  one_judge_driver.py [...] turnaround [--task NAME] [--candidates 5] [--options JSON]
      a warm worker: the task's reference loaded once, then candidates in turn (a ModelNew, then a .cu, ...), each
      a new file (new bytes: no cache of the judge's can serve it), each loaded and evaluated with the default
      options; seconds per candidate: nvcc (a .cu, built here with plain nvcc on a miss; the product compiles faster),
      load, evaluate. Goals: a ModelNew's load + evaluate until the verdict and speedup reach the client (the
      worker's "measured" event, before the precision, trace and metrics passes) <= 1.0 s, a .cu's <= 1.5 s
      (nvcc's share is shown apart and in the total); the whole evaluation with its passes is shown beside it.

  one_judge_driver.py [...] eval --candidate FILE [--task NAME] [--repeat N] [--options JSON]
      one candidate (.py or .cu) against a built-in task's reference: each result's verdict, flags, timing
      figures and roofline as JSON (a false flag's diagnosis).

The Python with torch reaches the worker as KFORGE_TORCH_PYTHON (and as --torch-python where the worker's --help
names that option). A .cu variant is compiled with nvcc as the self-test does (-O3 -lineinfo -arch=sm_XX -shared
-Xcompiler -fPIC -I<abi include>, the task's and the variant's nvcc_flags) and loaded as a .so; a .py is loaded by
path. Exit status: 0 every row as expected (turnaround: every goal met), 1 otherwise, 2 no worker or no device."""

import argparse
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TASKS = os.path.join(ROOT, 'resources', 'tasks')
ABI_INCLUDE = os.path.join(ROOT, 'core', 'runtime', 'include')
GOALS_S = {'ModelNew': 1.0, '.cu': 1.5}


class WorkerGone(Exception):
    pass


class Worker:
    """One kforge-worker process; request() sends a line and returns the response that carries its token."""

    def __init__(self, argv, env):
        self.argv, self.env = argv, env
        self.next_id = 0
        self.dropped = 0
        self.events = []  # (monotonic time, progress stage) of the requests' events
        self.start()

    def start(self):
        self.p = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr_file(),
                                  env=self.env, text=True, bufsize=1)
        ready = self.read_line(120)
        if not isinstance(ready, dict) or ready.get('event') != 'ready':
            raise WorkerGone('no ready line from %s: %r' % (' '.join(self.argv), ready))
        hello = self.request({'op': 'hello', 'protocol': 1}, 30)
        if not hello.get('ok'):
            raise WorkerGone('hello refused: %s' % json.dumps(hello))

    def stderr_file(self):
        path = os.environ.get('KFORGE_DRIVER_WORKER_LOG')
        return open(path, 'a') if path else subprocess.DEVNULL

    def read_line(self, timeout_s):
        box = []
        reader = threading.Thread(target=lambda: box.append(self.p.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout_s)
        if reader.is_alive():
            self.kill()
            raise WorkerGone('no line from the worker within %.0f s' % timeout_s)
        line = box[0] if box else ''
        if not line:
            raise WorkerGone('the worker exited (status %s)' % self.p.wait())
        try:
            return json.loads(line)
        except ValueError:
            return {'unparsed': line.strip()}

    def request(self, req, timeout_s):
        self.next_id += 1
        token = secrets.token_hex(16)
        req = dict(req, id=self.next_id, token=token)
        try:
            self.p.stdin.write(json.dumps(req) + '\n')
            self.p.stdin.flush()
        except OSError as e:
            raise WorkerGone('cannot write to the worker: %s' % e) from None
        deadline = time.monotonic() + timeout_s
        while True:
            msg = self.read_line(max(1.0, deadline - time.monotonic()))
            if not isinstance(msg, dict) or msg.get('token') != token or msg.get('id') != self.next_id:
                self.dropped += 1  # a line without this request's token: not an answer
                continue
            if 'event' in msg:
                self.events.append((time.monotonic(), msg.get('stage', msg.get('event'))))
                continue
            return msg

    def restart(self):
        self.kill()
        self.start()

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()

    def close(self):
        try:
            self.request({'op': 'shutdown'}, 20)
            self.p.wait(20)
        except (WorkerGone, subprocess.TimeoutExpired):
            self.kill()


def worker_argv(a):
    argv = [a.worker, '--device', str(a.device)]
    try:
        usage = subprocess.run([a.worker, '--help'], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        usage = ''
    if '--torch-python' in usage:
        argv += ['--torch-python', a.torch_python]
    return argv


def compile_cu(src, so, arch, flags):
    """nvcc as the self-test runs it; returns (seconds, error text or '')."""
    nvcc = os.environ.get('KFORGE_NVCC') or shutil.which('nvcc') or '/usr/local/cuda/bin/nvcc'
    cmd = [nvcc, '-O3', '-lineinfo', '-arch=' + arch, '-shared', '-Xcompiler', '-fPIC', '-I' + ABI_INCLUDE, '-o', so,
           src] + list(flags)
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return time.monotonic() - t0, ('' if p.returncode == 0 else (p.stderr or p.stdout).strip()[-600:])


def result_of(reply):
    """The EvalResult of an evaluate reply, or a stand-in naming what went wrong."""
    if reply.get('ok'):
        return reply.get('result', {})
    return {'verdict': 'error', 'message': json.dumps(reply.get('error', reply))[:400]}


def came_back(res, key):
    value = res.get(key)
    if value is None:
        return 'no'
    if isinstance(value, dict) and value.get('available') is False:
        return 'unavailable'
    return 'yes'


def load(w, slot, path, timeout_s):
    reply = w.request({'op': 'load', 'slot': slot, 'path': path}, timeout_s)
    return reply.get('ok', False), reply


def evaluate(w, task, options, timeout_s):
    try:
        return result_of(w.request({'op': 'evaluate', 'task': task, 'options': options}, timeout_s))
    except WorkerGone as e:
        return {'verdict': 'worker_gone', 'message': str(e)}


def table(rows, header):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    return '\n'.join('  '.join(str(c).ljust(widths[i]) for i, c in enumerate(r)).rstrip() for r in [header] + rows)


def torch_tasks(only):
    for name in sorted(os.listdir(TASKS)):
        path = os.path.join(TASKS, name, 'task.json')
        if not os.path.isfile(path) or (only and name not in only):
            continue
        with open(path, encoding='utf-8') as f:
            task = json.load(f)
        if task.get('kind') == 'torch':
            yield name, task


def cmd_builtin(a, w, arch, work):
    base = dict({'trace': True, 'metrics': True}, **json.loads(a.options))
    rows, all_ok = [], True
    for name, task in torch_tasks(a.task):
        folder = os.path.join(TASKS, name)
        wait_s = float(task.get('timeout_s', 60)) + 120
        for index, variant in enumerate(task.get('variants', [])):
            # The metrics pass replays every kernel of both sides (13-26 s for a reference of many kernels): on
            # the first variant of each task only, unless --metrics-all.
            options = dict(base, metrics=base['metrics'] and (index == 0 or a.metrics_all))
            label = variant.get('label', variant['file'])
            expect = variant.get('expect', {})
            src = os.path.join(folder, variant['file'])
            path, note = src, ''
            if src.endswith('.cu'):
                path = os.path.join(work, '%s-%s.so' % (name, label))
                secs, err = compile_cu(src, path, arch, task.get('nvcc_flags', []) + variant.get('nvcc_flags', []))
                note = 'nvcc %.1fs' % secs
                if err:
                    rows.append([name, label, 'compile_error', '-', '-', '-', '-', expect.get('verdict', 'correct'),
                                 'WRONG'])
                    print('%s/%s: nvcc failed: %s' % (name, label, err), flush=True)
                    all_ok = False
                    continue
            t0 = time.monotonic()
            try:
                ok_ref, ref = load(w, 'reference', os.path.join(folder, task.get('reference', 'reference.py')),
                                   wait_s)
                ok_cand, cand = load(w, 'candidate', path, wait_s) if ok_ref else (False, ref)
                res = evaluate(w, task, options, wait_s) if ok_cand else {
                    'verdict': 'load_error', 'message': json.dumps((cand if ok_ref else ref).get('error', {}))[:400]}
            except WorkerGone as e:
                res = {'verdict': 'worker_gone', 'message': str(e)}
            wall = time.monotonic() - t0
            if res.get('verdict') == 'worker_gone' or res.get('restart_required'):
                w.restart()
            verdict = res.get('verdict', '?')
            speedup = (res.get('timing') or {}).get('speedup')
            want = expect.get('verdict', 'correct')
            ok = verdict == want and not (verdict == 'correct' and expect.get('min_speedup')
                                          and (speedup or 0) < expect['min_speedup'])
            all_ok = all_ok and ok
            rows.append([name, label, verdict, '%.2fx' % speedup if speedup else '-',
                         ','.join(res.get('flags', [])) or '-', came_back(res, 'trace'),
                         came_back(res, 'metrics') if options['metrics'] else 'off',
                         want + (' >=%gx' % expect['min_speedup'] if expect.get('min_speedup') else ''),
                         'ok' if ok else 'WRONG'])
            # The row's columns in the progress line too: a stage cut short by its limit still shows them.
            print('%s/%s: %s %s in %.1fs%s; flags %s, trace %s, metrics %s, expected %s: %s; %s' % (
                name, label, verdict, rows[-1][3], wall, ' (%s)' % note if note else '', rows[-1][4], rows[-1][5],
                rows[-1][6], rows[-1][7], rows[-1][8], res.get('message', '')[:160]), flush=True)
    print()
    print(table(rows, ['task', 'variant', 'verdict', 'speedup', 'flags', 'trace', 'metrics', 'expected', 'ok']))
    return 0 if all_ok and rows else 1


def cmd_turnaround(a, w, arch, work):
    task_name = a.task[0] if a.task else 'torch_diag_matmul'
    folder = os.path.join(TASKS, task_name)
    with open(os.path.join(folder, 'task.json'), encoding='utf-8') as f:
        task = json.load(f)
    variants = task.get('variants', [])
    py = next((v for v in variants if v['file'].endswith('.py') and v.get('expect', {}).get('verdict', 'correct')
               == 'correct'), None)
    cu = next((v for v in variants if v['file'].endswith('.cu')), None)
    if not py or not cu:
        print('%s needs a correct .py variant and a .cu variant' % task_name)
        return 1
    options = json.loads(a.options)
    wait_s = float(task.get('timeout_s', 60)) + 120

    def fresh(variant, i):
        """A new file with the variant's source and a comment of its own: new bytes, so no cache serves it."""
        with open(os.path.join(folder, variant['file']), encoding='utf-8') as f:
            source = f.read()
        ext = os.path.splitext(variant['file'])[1]
        path = os.path.join(work, 'turnaround_%d%s' % (i, ext))
        mark = '# ' if ext == '.py' else '// '
        with open(path, 'w', encoding='utf-8') as f:
            f.write('%sturnaround candidate %d, %s\n' % (mark, i, secrets.token_hex(8)) + source)
        return path

    t0 = time.monotonic()
    ok_ref, ref = load(w, 'reference', os.path.join(folder, task.get('reference', 'reference.py')), wait_s)
    print('reference %s loaded in %.2fs: %s' % (task_name, time.monotonic() - t0,
                                                 'ok' if ok_ref else json.dumps(ref.get('error'))), flush=True)
    if not ok_ref:
        return 1
    # One evaluation first (not counted): the worker's lazy work (peaks, the reference's first calls).
    ok, _ = load(w, 'candidate', fresh(py, 0), wait_s)
    t0 = time.monotonic()
    res = evaluate(w, task, options, wait_s) if ok else {'verdict': 'load_error'}
    print('warm-up: %s in %.2fs' % (res.get('verdict'), time.monotonic() - t0), flush=True)
    rows, met = [], True
    for i in range(1, a.candidates + 1):
        kind, variant = ('ModelNew', py) if i % 2 == 1 else ('.cu', cu)
        path = fresh(variant, i)
        nvcc_s = 0.0
        if kind == '.cu':
            so = path[:-3] + '.so'
            nvcc_s, err = compile_cu(path, so, arch, task.get('nvcc_flags', []) + variant.get('nvcc_flags', []))
            if err:
                print('nvcc failed: %s' % err)
                return 1
            path = so
        time.sleep(a.settle)  # the client's own time between candidates: the worker boots its spare hosts
        t0 = time.monotonic()
        ok, reply = load(w, 'candidate', path, wait_s)
        load_s = time.monotonic() - t0
        t1 = time.monotonic()
        w.events = []
        res = evaluate(w, task, options, wait_s) if ok else {'verdict': 'load_error',
                                                            'message': json.dumps(reply.get('error'))}
        eval_s = time.monotonic() - t1
        # The verdict and the speedup reach the client in the worker's "measured" event, before the passes
        # (precision, trace, metrics); without one (no pass to run) with the response.
        measured = [t for t, stage in w.events if stage == 'measured']
        timed_s = (measured[0] - t1) if measured else eval_s
        verdict_s = load_s + timed_s
        judge_s = load_s + eval_s
        goal = GOALS_S[kind]
        # A .cu's goal is on a compile miss: the product's compile (--compile-s) where measured, else plain nvcc.
        compile_s = (a.compile_s if a.compile_s is not None else nvcc_s) if kind == '.cu' else 0.0
        verdict_s += compile_s
        met = met and verdict_s <= goal and res.get('verdict') == 'correct'
        speedup = (res.get('timing') or {}).get('speedup')
        rows.append([i, kind, res.get('verdict'), '%.2fx' % speedup if speedup else '-', '%.2f' % verdict_s,
                     '<=%.1f %s' % (goal, 'ok' if verdict_s <= goal else 'MISSED'), '%.2f' % judge_s,
                     '%.2f' % nvcc_s if kind == '.cu' else '-', '%.2f' % load_s, '%.2f' % timed_s, '%.2f' % eval_s,
                     '%.2f' % (judge_s + nvcc_s), os.path.basename(variant['file']),
                     json.dumps(res.get('phases_s')) if res.get('phases_s') else '',
                     # Where a module host's start went, and the precision pass's float64 run on the reference.
                     json.dumps(res.get('candidate_start_ms')) if res.get('candidate_start_ms') else '-',
                     '%.1f' % (res.get('precision') or {}).get('float64_ms', 0) if res.get('precision') else '-'])
        print('candidate %d (%s): %s, load %.2fs + evaluate %.2fs%s' % (
            i, kind, res.get('verdict'), load_s, eval_s, ', nvcc %.2fs' % nvcc_s if kind == '.cu' else ''), flush=True)
    print()
    print(table(rows, ['#', 'kind', 'verdict', 'speedup', 'verdict_s', 'goal (verdict_s)', 'judge_s', 'nvcc_s', 'load_s',
                       'timed_s', 'eval_s', 'total_s', 'from', 'phases_s', 'start_ms', 'float64_ms']))
    print('verdict_s: load + the evaluation until its "measured" event (the verdict and the speedup shown), for a .cu '
          'plus its compile (%s); judge_s: load + the whole evaluation with its passes; total_s: judge_s + plain nvcc'
          % ("the product's, %.3f s, measured apart" % a.compile_s if a.compile_s is not None else 'plain nvcc'))
    return 0 if met else 1


def cmd_eval(a, w, arch, work):
    """One candidate against a built-in task's reference: the result's verdict, timing, roofline and flags."""
    name = a.task[0] if a.task else 'torch_softmax'
    folder = os.path.join(TASKS, name)
    with open(os.path.join(folder, 'task.json'), encoding='utf-8') as f:
        task = json.load(f)
    wait_s = float(task.get('timeout_s', 60)) + 120
    path = a.candidate
    if path.endswith('.cu'):
        path = os.path.join(work, 'eval.so')
        _, err = compile_cu(a.candidate, path, arch, task.get('nvcc_flags', []))
        if err:
            print('nvcc failed: %s' % err)
            return 1
    ok, reply = load(w, 'reference', os.path.join(folder, task.get('reference', 'reference.py')), wait_s)
    if ok:
        ok, reply = load(w, 'candidate', path, wait_s)
    for i in range(a.repeat):
        res = evaluate(w, task, json.loads(a.options), wait_s) if ok else {
            'verdict': 'load_error', 'message': json.dumps(reply.get('error', reply))[:300]}
        timing = res.get('timing') or {}
        keep = {k: v for k, v in timing.items()
                if not isinstance(v, (list, dict)) or k in ('batches_ms', 'gated_sides')}
        print(json.dumps({'run': i + 1, 'verdict': res.get('verdict'), 'flags': res.get('flags'),
                          'message': res.get('message', '')[:300], 'warnings': res.get('warnings'),
                          'timing': keep, 'roofline': res.get('roofline'), 'deep': res.get('deep')}, indent=1),
              flush=True)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__.split('\n\n', 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--worker', default=os.environ.get('KFORGE_WORKER', 'kforge-worker'))
    ap.add_argument('--device', type=int, default=0)
    ap.add_argument('--torch-python', default=os.environ.get('KFORGE_TORCH_PYTHON') or shutil.which('python3') or
                    'python3')
    sub = ap.add_subparsers(dest='command', required=True)
    b = sub.add_parser('builtin', help='every built-in torch task and its variants, trace and metrics on')
    b.add_argument('--task', action='append', default=[], help='only this task (repeatable)')
    b.add_argument('--options', default='{}', help='evaluation options (JSON) over trace and metrics on')
    t = sub.add_parser('turnaround', help='a warm worker, one reference, candidates in turn')
    t.add_argument('--task', action='append', default=[], help='the task (default torch_diag_matmul)')
    t.add_argument('--candidates', type=int, default=5)
    t.add_argument('--settle', type=float, default=0.5, help='seconds between candidates (default 0.5)')
    t.add_argument('--options', default='{}', help='evaluation options (JSON; default: the worker\'s defaults)')
    t.add_argument('--compile-s', type=float, default=None,
                   help="the product's compile of the .cu on a miss, seconds (bench_turnaround --compile-only): the "
                        ".cu goal counts it instead of the driver's plain nvcc")
    b.add_argument('--metrics-all', action='store_true', help='the metrics pass on every variant, not the first')
    e = sub.add_parser('eval', help='one candidate file against a built-in task: its result\'s timing and roofline')
    e.add_argument('--task', action='append', default=[], help='the task (default torch_softmax)')
    e.add_argument('--candidate', required=True)
    e.add_argument('--repeat', type=int, default=1)
    e.add_argument('--options', default='{"trace": false, "metrics": false}')
    a = ap.parse_args()
    env = dict(os.environ, KFORGE_TORCH_PYTHON=a.torch_python, PYTHONDONTWRITEBYTECODE='1')
    work = tempfile.mkdtemp(prefix='kforge-one-judge-')
    try:
        w = Worker(worker_argv(a), env)
    except (OSError, WorkerGone) as e:
        print('one_judge_driver: cannot start %s: %s' % (a.worker, e), file=sys.stderr)
        return 2
    try:
        info = w.request({'op': 'device_info'}, 120)
        if not info.get('ok'):
            print('one_judge_driver: device_info: %s' % json.dumps(info.get('error')), file=sys.stderr)
            return 2
        device = info['device']
        arch = device.get('arch', 'sm_90')
        print('%s (%s), worker %s, torch python %s' % (device.get('name'), arch, a.worker, a.torch_python), flush=True)
        status = {'builtin': cmd_builtin, 'turnaround': cmd_turnaround, 'eval': cmd_eval}[a.command](a, w, arch, work)
        if w.dropped:
            print('%d line(s) without the request\'s token were dropped' % w.dropped)
        return status
    except WorkerGone as e:
        print('one_judge_driver: %s' % e, file=sys.stderr)
        return 1
    finally:
        w.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
