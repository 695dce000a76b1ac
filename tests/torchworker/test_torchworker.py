#!/usr/bin/env python3
"""kforge-torch-worker through its JSON-lines stdin/stdout: protocol, verdicts and result fields for the problems
and candidates in data/. Runs on the CPU (--device cpu); with KFORGE_TORCH_DEVICE=0 on a GPU, where the .cu
candidate is compiled and run too. Exit 77 (SKIP) when this python has no torch.
Usage: test_torchworker.py WORKER_SCRIPT [unittest args]"""

import importlib.util
import json
import os
import subprocess
import sys
import time
import unittest

try:
    import torch
except ImportError:
    print('SKIP: no torch in %s' % sys.executable)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
WORKER = ''
DEVICE = os.environ.get('KFORGE_TORCH_DEVICE', 'cpu')
NAMES = {torch.float32: 'f32', torch.float64: 'f64', torch.float16: 'f16', torch.bfloat16: 'bf16',
         torch.int64: 'i64', torch.int32: 'i32', torch.bool: 'bool', torch.uint8: 'u8'}
if DEVICE != 'cpu' and not torch.cuda.is_available():
    print('SKIP: KFORGE_TORCH_DEVICE=%s but torch %s sees no CUDA device' % (DEVICE, torch.__version__))
    sys.exit(77)
FAST = {'trials': 3, 'min_runs': 5, 'min_time_ms': 20, 'warmup': 2}


def task_for(problem, inits=None, **extra):
    """A "kind": "torch" task from a KernelBench-style problem: shapes from one get_inputs() call, outputs from
    one forward (this test's own helper; KForge's import writes the real one)."""
    spec = importlib.util.spec_from_file_location('problem_' + problem, os.path.join(DATA, problem + '.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    init_args = module.get_init_inputs()
    args = module.get_inputs()
    names = list(module.Model.forward.__code__.co_varnames[1:module.Model.forward.__code__.co_argcount])
    inputs = []
    for i, a in enumerate(args):
        if isinstance(a, torch.Tensor):
            entry = {'name': names[i], 'dtype': NAMES[a.dtype], 'shape': list(a.shape),
                     'init': (inits or {}).get(names[i], {'dist': 'normal', 'mean': 0, 'std': 1})}
        else:
            entry = {'name': names[i], 'scalar': type(a).__name__, 'value': a}
        inputs.append(entry)
    with torch.no_grad():
        out = module.Model(*init_args)(*args)
    outs = out if isinstance(out, (list, tuple)) else [out]
    task = {'kind': 'torch', 'name': problem, 'params': {}, 'init_inputs': init_args, 'inputs': inputs,
            'outputs': [{'name': 'out' if len(outs) == 1 else 'out%d' % i, 'dtype': NAMES[o.dtype],
                         'shape': list(o.shape)} for i, o in enumerate(outs)],
            'tolerance': {'f32': {'atol': 1e-5, 'rtol': 1e-5}}, 'timeout_s': 60}
    task.update(extra)
    return task


def descendants(pid):
    """Every process below pid (by parent links in /proc)."""
    parents = {}
    for name in os.listdir('/proc'):
        if name.isdigit():
            try:
                with open('/proc/%s/stat' % name) as f:
                    parents[int(name)] = int(f.read().rsplit(')', 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    found, frontier = [], [pid]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in parents.items() if pp == p]
        found += kids
        frontier += kids
    return found


def alive(pid):
    """True while pid exists and is not a zombie."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except OSError:
        return False


class Worker:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, WORKER, '--device', DEVICE], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.ready = json.loads(self.proc.stdout.readline())
        self.next_id = 0

    def ask(self, **req):
        self.next_id += 1
        req.setdefault('id', self.next_id)
        self.proc.stdin.write(json.dumps(req) + '\n')
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def raw(self, line):
        self.proc.stdin.write(line + '\n')
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def evaluate(self, reference, candidate, task, options=None):
        for slot, name in (('reference', reference), ('candidate', candidate)):
            r = self.ask(op='load', slot=slot, path=os.path.join(DATA, name))
            assert r['ok'], r
        r = self.ask(op='evaluate', task=task, options=dict(FAST, **(options or {})))
        assert r['ok'], r
        return r['result']

    def close(self):
        r = self.ask(op='shutdown')
        assert r['ok']
        self.proc.stdin.close()
        self.proc.stdout.close()
        assert self.proc.wait(30) == 0


class TorchWorkerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.w = Worker()
        cls.matmul = task_for('matmul_relu')

    @classmethod
    def tearDownClass(cls):
        cls.w.close()

    def verdict(self, result, verdict, *words):
        self.assertEqual(result['verdict'], verdict, result['message'])
        for word in words:
            self.assertIn(word, result['message'])
        return result

    def test_protocol(self):
        self.assertEqual(self.w.ready['event'], 'ready')
        self.assertEqual(self.w.ready['protocol'], 1)
        r = self.w.ask(op='hello', protocol=1, token='abc123')
        self.assertTrue(r['ok'])
        self.assertEqual(r['token'], 'abc123')
        self.assertEqual(r['protocol'], 1)
        self.assertEqual(self.w.ask(op='hello', protocol=2)['error']['code'], 'protocol_mismatch')
        self.assertEqual(self.w.ask(op='frobnicate')['error']['code'], 'bad_request')
        bad = self.w.raw('{not json')
        self.assertIsNone(bad['id'])
        self.assertEqual(bad['error']['code'], 'bad_request')
        self.assertEqual(self.w.ask(op='load', slot='candidate', path='/nonexistent/x.py')['error']['code'],
                         'load_failed')
        self.assertEqual(self.w.ask(op='load', slot='candidate', path='/etc/hostname')['error']['code'],
                         'load_failed')
        info = self.w.ask(op='device_info')
        self.assertTrue(info['ok'], info)
        self.assertIn('name', info['device'])

    def test_trace_pass(self):
        # A CUDA worker traces a few more runs of each side with the injection library in the hosts; a CPU
        # worker has nothing to trace and says nothing about it.
        r = self.w.evaluate('matmul_relu.py', 'matmul_relu_good.py', self.matmul)
        self.verdict(r, 'correct')
        if DEVICE == 'cpu':
            self.assertNotIn('trace', r)
            return
        trace = r['trace']
        self.assertTrue(trace['available'], trace)
        for side in ('candidate', 'reference'):
            self.assertEqual(trace[side]['runs'], 10)
            self.assertGreaterEqual(trace[side]['launches_per_run'], 1)
            self.assertTrue(trace[side]['kernels'])
            # the kernels ran within the runs' windows, so their time is at most the windows' time
            self.assertLessEqual(trace[side]['kernel_time_ms']['median'], trace[side]['event_time_ms']['median'])
        self.assertIn('trace', r['phases_s'])

    def test_evaluate_needs_both_slots(self):
        w = Worker()
        try:
            w.ask(op='load', slot='reference', path=os.path.join(DATA, 'matmul_relu.py'))
            r = w.ask(op='evaluate', task=self.matmul)
            self.assertEqual(r['error']['code'], 'bad_request')
            self.assertIn('candidate slot is empty', r['error']['message'])
        finally:
            w.close()

    def test_correct_with_copied_weights(self):
        # The candidate initialises its buffer to zeros and draws its own weights: only the copied state dict
        # makes it match.
        r = self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_good.py', self.matmul), 'correct')
        v = r['verification']
        self.assertEqual(v['trials'], 3)
        self.assertEqual(v['mismatches'], 0)
        self.assertTrue(v['output_depends_on_inputs'])
        self.assertFalse(v['input_mutated'])
        self.assertGreater(v['timed_outputs_checked'], 0)
        t = r['timing']
        self.assertEqual(t['external'], DEVICE != 'cpu')
        if t['external']:  # the judge's clock agrees with the hosts' on an honest candidate: no flag
            self.assertNotIn('timing_mismatch', r['flags'], (r.get('warnings'), {
                side: {k: t[side].get(k) for k in ('host_ms', 'external_ms')}
                for side in ('reference', 'candidate')}, t.get('batch_calls'), t.get('reference_batch_calls')))
            for side in ('reference', 'candidate'):
                self.assertGreater(t[side]['external_batches'], 0)
                self.assertGreaterEqual(t[side]['external_ms'], 0.0)
        self.assertEqual(t['device'], 'cpu' if DEVICE == 'cpu' else 'cuda')
        self.assertGreaterEqual(t['candidate']['runs'], 5)
        self.assertGreater(t['reference']['median_ms'], 0)
        self.assertAlmostEqual(t['speedup'], t['reference']['median_ms'] / t['candidate']['median_ms'], places=6)
        self.assertIsInstance(r['seed'], int)
        self.assertNotIn('degenerate_output', r['flags'])
        for side in ('reference', 'candidate'):  # unstable_timing looks at batches, as kforge-worker's
            self.assertGreaterEqual(t[side]['batch_cv'], 0.0)
            self.assertEqual('unstable_timing' in r['flags'],
                             t['reference']['batch_cv'] > 0.1 or t['candidate']['batch_cv'] > 0.1)
        a = t['adaptive']  # the stop rule as kforge-worker's: the interval, and why timing ended
        self.assertEqual(a['target'], 0.01)
        self.assertIn(a['stopped_by'], ('target', 'max_time', 'max_runs'))
        self.assertEqual(a['reached'], a['stopped_by'] == 'target')
        if a['candidate']['half_width'] is not None:
            self.assertLessEqual(a['candidate']['ci_low_ms'], a['candidate']['ci_high_ms'])
        # The judge boots the next evaluation's hosts between evaluations: this class's worker has evaluated
        # before, so both hosts were spares (a fresh process each, booted while the client was busy).
        w = Worker()
        try:
            first = w.evaluate('matmul_relu.py', 'matmul_relu_good.py', self.matmul)
            second = w.evaluate('matmul_relu.py', 'matmul_relu_good.py', self.matmul)
        finally:
            w.close()
        self.assertTrue(first['isolation']['candidate']['booted_before'])  # started at the reference's load
        self.assertTrue(second['isolation']['candidate']['booted_before'])
        self.assertTrue(second['isolation']['reference']['booted_before'])
        self.assertLess(second['phases_s']['load'], 5.0)
        # The first evaluation's hosts end after its reply; the second waits for that before it starts.
        self.assertNotIn('close', second['phases_s'])
        self.assertGreaterEqual(second['phases_s']['previous_close'], 0.0)
        self.assertLessEqual({'hosts', 'reference', 'candidate'}, set(second['load_parts_s']))
        # The same reference again: its host (never traced on a CPU worker) served the second evaluation, with
        # the weights and state dict of the first (reference_seed).
        if DEVICE == 'cpu':
            self.assertFalse(first['isolation']['reference']['reused'])
            self.assertTrue(second['isolation']['reference']['reused'])
            self.assertEqual(first['reference_seed'], second['reference_seed'])
        else:  # the first evaluation's trace pass traced the reference: CUPTI stays, so its host is not kept
            self.assertFalse(second['isolation']['reference']['reused'])
            self.assertTrue(second['trace']['reference_reused'])  # its trace is
        exchange = r['isolation']['candidate']['exchange']
        self.assertIn('CUDA IPC' if DEVICE != 'cpu' else 'private pipe', exchange)

    def test_pipe_exchange_gives_the_same_verdicts(self):
        # On a CUDA worker the tensors go through the judge's lent buffers; "exchange": "pipe" takes the CPU
        # workers' path there too. Both must judge alike (on a CPU worker both are the pipe).
        for options in ({'exchange': 'pipe'}, {}):
            self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_good.py', self.matmul, options), 'correct')
            self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_wrong.py', self.matmul, options),
                         'incorrect', 'differs at')

    def test_inline_extension_is_built_once(self):
        import tempfile
        import torch.utils.cpp_extension as ext
        try:
            ext.verify_ninja_availability()
        except RuntimeError:
            self.skipTest('no ninja: load_inline cannot build here')
        if not any(os.path.isfile(os.path.join(p, 'torch', 'extension.h')) for p in ext.include_paths() +
                   ['/usr/include']):
            self.skipTest('no torch/extension.h (Debian: libtorch-dev): load_inline cannot build here')
        cache = tempfile.mkdtemp(prefix='kforge-torch-cache-')
        old = os.environ.get('KFORGE_TORCH_CACHE')
        os.environ['KFORGE_TORCH_CACHE'] = cache
        try:
            w = Worker()
        finally:
            os.environ.pop('KFORGE_TORCH_CACHE') if old is None else os.environ.update(KFORGE_TORCH_CACHE=old)
        try:
            first = self.verdict(w.evaluate('matmul_relu.py', 'matmul_relu_inline.py', self.matmul), 'correct')
            second = self.verdict(w.evaluate('matmul_relu.py', 'matmul_relu_inline.py', self.matmul), 'correct')
            broken = self.verdict(w.evaluate('matmul_relu.py', 'matmul_relu_inline_broken.py', self.matmul),
                                  'load_error', 'undeclared_name', 'error', 'kforge_test_broken')
        finally:
            w.close()
        self.assertEqual((first['build_cache']['builds'], first['build_cache']['hits']), (1, 0))
        self.assertEqual((second['build_cache']['builds'], second['build_cache']['hits']), (0, 1))
        built, found = first['build_cache']['extensions'][0], second['build_cache']['extensions'][0]
        self.assertEqual((built['name'], built['key']), (found['name'], found['key']))
        self.assertLess(found['seconds'], built['seconds'])
        self.assertNotIn('ninja -v', broken['message'])
        # Each file has its own directory: the reference's, the good candidate's and the broken one's.
        self.assertEqual(len(os.listdir(os.path.join(cache, os.listdir(cache)[0]))), 3)

    def test_fixed_rule_with_ci_target_zero(self):
        r = self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_good.py', self.matmul,
                                         {'ci_target': 0}), 'correct')
        self.assertEqual(r['timing']['adaptive']['stopped_by'], 'fixed')
        self.assertFalse(r['timing']['adaptive']['reached'])

    def test_seed_is_recorded_and_used(self):
        a = self.w.evaluate('matmul_relu.py', 'matmul_relu_wrong.py', self.matmul, {'seed': 12345, 'timing': False})
        b = self.w.evaluate('matmul_relu.py', 'matmul_relu_wrong.py', self.matmul, {'seed': 12345, 'timing': False})
        self.assertEqual(a['seed'], 12345)
        self.assertEqual(a['verification']['first_mismatch'], b['verification']['first_mismatch'])

    def test_wrong(self):
        r = self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_wrong.py', self.matmul), 'incorrect')
        self.assertGreater(r['verification']['mismatches'], 0)
        first = r['verification']['first_mismatch']
        self.assertEqual(first['output'], 'out')
        self.assertEqual(len(first['coords']), 2)
        self.assertNotIn('timing', r)

    def test_wrong_only_when_timed(self):
        # The timed calls' outputs are compared stacked per batch; a wrong call among them is still named
        r = self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_wrong_when_timed.py', self.matmul),
                         'incorrect', 'timed round 1, call ')
        first = r['verification']['first_mismatch']
        self.assertEqual(first['coords'], [0, 0])
        self.assertIn('timed round 1, call ', first['trial'])

    def test_wrong_dtype(self):
        r = self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_dtype.py', self.matmul), 'incorrect',
                         'matmul_relu_dtype.py', 'dtype f64', 'the reference f32')
        self.assertIn('forward', r['verification']['reason'])

    def test_wrong_shape(self):
        self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_shape.py', self.matmul), 'incorrect',
                     'matmul_relu_shape.py', 'step forward', 'shape [16, 32], the reference [32, 16]')

    def test_raises(self):
        self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_raises.py', self.matmul), 'crashed',
                     'matmul_relu_raises.py', 'step forward', 'trial 1', 'RuntimeError: kernel not written yet',
                     'line 11')

    def test_constructor_signature(self):
        self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_signature.py', self.matmul), 'load_error',
                     'matmul_relu_signature.py', 'step construct', 'TypeError')

    def test_state_dict_keys(self):
        self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_keys.py', self.matmul), 'load_error',
                     'step load_state_dict', 'linear.weight', 'proj.weight')

    def test_mutates_input(self):
        r = self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_mutates.py', self.matmul), 'incorrect',
                         'changed its input x')
        self.assertTrue(r['verification']['input_mutated'])
        self.assertEqual(r['verification']['mutated_inputs'], ['x'])

    def test_mutates_input_while_timed(self):
        r = self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_mutates_timed.py', self.matmul),
                         'incorrect', 'changed its input x while it was timed')
        self.assertEqual(r['verification']['trials'], 3)
        self.assertNotIn('timing', r)

    def test_patched_allclose_does_not_help(self):
        r = self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_allclose.py', self.matmul), 'incorrect')
        self.assertGreater(r['verification']['mismatches'], 0)

    def test_patched_clock_does_not_change_the_figure(self):
        r = self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_clock.py', self.matmul), 'correct')
        self.assertGreaterEqual(r['timing']['candidate']['median_ms'], 3.0)
        self.assertGreaterEqual(r['timing']['candidate']['min_ms'], 3.0)
        self.assertLess(r['timing']['speedup'], 1.0)

    def test_host_clock_rebound_is_caught_by_the_judges_clock(self):
        # The candidate rebinds the host's own captured clock (a global of the host module): the host's figures
        # say 1 us per call. On a CUDA worker the judge's events around each batch still see >= 3 ms per call:
        # timing_mismatch, and the judge's figure is the one used. A CPU worker has no clock outside the host
        # process (docs/torch-worker.md), so there this cheat is only shown to work.
        r = self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_hostclock.py', self.matmul), 'correct')
        t = r['timing']
        if DEVICE == 'cpu':
            self.assertFalse(t['external'])
            self.assertLess(t['candidate']['median_ms'], 1.0)  # the known gap of CPU workers, kept visible
            return
        self.assertTrue(t['external'])
        self.assertIn('timing_mismatch', r['flags'])
        self.assertGreaterEqual(t['candidate']['median_ms'], 3.0)
        self.assertGreaterEqual(t['candidate']['external_ms'], 3.0)
        self.assertLess(t['candidate']['host_ms'], 0.1)
        self.assertLess(t['speedup'], 1.0)

    def test_flags_stay_in_the_candidate(self):
        # The reference doubles its output when it sees allow_tf32; the candidate switches it on and copies.
        self.verdict(self.w.evaluate('flag_probe.py', 'flag_probe_tf32.py', task_for('flag_probe')), 'correct')

    def test_degenerate(self):
        r = self.verdict(self.w.evaluate('degenerate.py', 'degenerate_const.py', task_for('degenerate')), 'correct')
        self.assertIn('degenerate_output', r['flags'])
        self.assertFalse(r['verification']['output_depends_on_inputs'])
        self.assertTrue(r['warnings'])

    def test_integer_and_bool_inputs(self):
        task = task_for('gather_mask', {'idx': {'dist': 'integers', 'low': 0, 'high': 50}})
        self.assertEqual([a.get('dtype') for a in task['inputs']], ['i64', 'bool', None])
        self.verdict(self.w.evaluate('gather_mask.py', 'gather_mask_good.py', task), 'correct')

    def test_task_as_import_writes_it(self):
        # The shape of task.json that kforge-cli import writes: shapes as expressions over params, scalar
        # arguments with their value, parameters/buffers/flops/bytes fields the judge does not need.
        with open(os.path.join(DATA, 'gather_mask.task.json')) as f:
            task = json.load(f)
        self.assertEqual(task['inputs'][0]['shape'], ['B', 'L'])
        r = self.verdict(self.w.evaluate('gather_mask.py', 'gather_mask_good.py', task), 'correct')
        self.assertEqual(r['verification']['elements'], 4 * 12 * 8)
        task['inputs'][0]['shape'] = ['B', 'Q']
        r = self.w.ask(op='evaluate', task=task)
        self.assertEqual(r['error']['code'], 'bad_request')
        self.assertIn("task.inputs[0].shape[1]: unknown identifier 'Q'", r['error']['message'])

    def test_integer_input_needs_a_range(self):
        task = task_for('gather_mask', {'idx': None})
        for slot, name in (('reference', 'gather_mask.py'), ('candidate', 'gather_mask_good.py')):
            self.w.ask(op='load', slot=slot, path=os.path.join(DATA, name))
        r = self.w.ask(op='evaluate', task=task)
        self.assertEqual(r['error']['code'], 'bad_request')
        self.assertIn('task.inputs[0].init', r['error']['message'])

    def probe_process(self, worker):
        """The probe candidate's report of its host: (descriptors, session leader, cwd, forked)."""
        r = self.verdict(worker.evaluate('matmul_relu.py', 'matmul_relu_probe.py', self.matmul, {'timing': False}),
                         'correct')
        lines = dict(line.split(' ', 2)[1:] for line in r['stdout'].splitlines() if line.startswith('probe '))
        import ast
        return dict(ast.literal_eval(lines['fds'])), lines['session_leader'], lines['cwd'], \
            r['isolation']['candidate']['forked']

    def check_host_hygiene(self, fds, leader, cwd):
        pipes = [t for t in fds.values() if t.startswith('pipe:')]
        self.assertEqual(len(pipes), 4, fds)  # stdout, stderr and the two protocol pipes, nothing else
        self.assertFalse([t for t in fds.values() if t.startswith('socket:')], fds)  # no zygote socket
        self.assertEqual(fds.get(0), '/dev/null', fds)
        self.assertEqual(leader, 'True')
        self.assertIn('kforge-torch-candidate-', cwd)

    def test_hosts_forked_from_the_zygote(self):
        # The zygote imports torch while the first evaluations spawn their hosts; later hosts are forked from it
        deadline = time.monotonic() + 60
        while True:
            fds, leader, cwd, forked = self.probe_process(self.w)
            if forked or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        self.assertTrue(forked, 'no host was forked from the zygote within 60 s')
        self.check_host_hygiene(fds, leader, cwd)
        self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_exits.py', self.matmul), 'crashed',
                     'exit status 3')  # a forked host's exit status comes back through the zygote

    def test_spawned_hosts_without_the_zygote(self):
        os.environ['KFORGE_TORCH_ZYGOTE'] = '0'
        try:
            w = Worker()
        finally:
            del os.environ['KFORGE_TORCH_ZYGOTE']
        try:
            fds, leader, cwd, forked = self.probe_process(w)
            self.assertFalse(forked)
            self.check_host_hygiene(fds, leader, cwd)
        finally:
            w.close()

    def test_zygote_turned_off_when_a_forked_host_cannot_boot(self):
        sys.path.insert(0, os.path.dirname(os.path.realpath(WORKER)))
        from kforge_torchworker.hostproc import HostProcess
        from kforge_torchworker.judge import Judge
        # data/badfork/sitecustomize.py, loaded by the zygote, makes torch report a bad fork in every process
        # forked from it: the forked host ends with status 86 before it answers, as it would where CUDA had been
        # initialised in the zygote
        saved = os.environ.get('PYTHONPATH')
        os.environ['PYTHONPATH'] = os.path.join(DATA, 'badfork') + (os.pathsep + saved if saved else '')
        try:
            judge = Judge('cpu', sys.stderr)
        finally:
            if saved is None:
                del os.environ['PYTHONPATH']
            else:
                os.environ['PYTHONPATH'] = saved
        try:
            self.assertTrue(judge.zygote.wait_ready(60), judge.zygote.why)
            host = HostProcess('candidate', None, 'cpu', judge.zygote)
            self.assertTrue(host.forked)
            self.assertFalse(judge.booted_if_forked(host))
            self.assertEqual(host.proc.wait(5), 86)
            self.assertIn('forked after CUDA was initialised', host.stderr_tail())
            host.close()
            self.assertFalse(judge.zygote.ready)
            self.assertIn('could not boot', judge.zygote.why)
            spawned = judge.take_host('candidate', os.path.join(DATA, 'matmul_relu_good.py'), 'cpu')
            self.assertFalse(spawned.forked)
            spawned.wait_booted(time.monotonic() + 60)
            spawned.close()
        finally:
            judge.close_spares()
            judge.zygote.close()
            import shutil
            shutil.rmtree(judge.dir, ignore_errors=True)

    def test_killed_judge_leaves_no_process(self):
        w = Worker()
        w.evaluate('matmul_relu.py', 'matmul_relu_good.py', self.matmul, {'timing': False})
        deadline = time.monotonic() + 60
        while not self.probe_process(w)[3] and time.monotonic() < deadline:
            time.sleep(0.5)
        family = descendants(w.proc.pid)
        self.assertGreaterEqual(len(family), 2, family)  # the zygote and the spare hosts at least
        w.proc.kill()
        w.proc.wait(10)
        w.proc.stdin.close()
        w.proc.stdout.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and [p for p in family if alive(p)]:
            time.sleep(0.1)
        self.assertEqual([p for p in family if alive(p)], [], 'processes outlived the killed judge')

    def test_exit_is_crashed_and_worker_goes_on(self):
        r = self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_exits.py', self.matmul), 'crashed',
                         'exit status 3')
        self.assertIn('about to leave', r['stdout'])
        self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_good.py', self.matmul, {'timing': False}),
                     'correct')

    def test_timeout(self):
        task = dict(self.matmul, timeout_s=12)
        self.verdict(self.w.evaluate('matmul_relu.py', 'matmul_relu_hangs.py', task), 'timeout', 'trial 1',
                     'process group was killed')

    def test_cu_candidate(self):
        r = self.w.evaluate('matmul_relu.py', 'matmul_relu_kernel.cu', self.matmul)
        if DEVICE == 'cpu' or not torch.cuda.is_available():
            self.verdict(r, 'load_error', 'matmul_relu_kernel.cu', 'step compile', 'needs a GPU')
        else:
            self.verdict(r, 'correct')
            self.assertGreater(r['timing']['speedup'], 0)

    def test_so_candidate(self):
        """The .so KForge's compiler built from a .cu (what the client sends for a torch task's .cu candidate), by
        path and inline as so_base64: loaded without nvcc; on the CPU the verdict says a GPU is needed."""
        import base64
        import shutil
        import tempfile
        folder = tempfile.mkdtemp(prefix='kforge-so-test-')
        so = os.path.join(folder, 'kernel.so')
        if DEVICE == 'cpu' or not torch.cuda.is_available():
            with open(so, 'wb') as f:
                f.write(b'\x7fELF not really a library')
        else:
            major, minor = torch.cuda.get_device_capability(0)
            nvcc = os.environ.get('KFORGE_NVCC') or shutil.which('nvcc') or '/usr/local/cuda/bin/nvcc'
            include = os.path.join(os.path.dirname(os.path.dirname(HERE)), 'core', 'runtime', 'include')
            subprocess.run([nvcc, '-O3', '-arch=sm_%d%d' % (major, minor), '-shared', '-Xcompiler', '-fPIC',
                            '-I' + include, os.path.join(DATA, 'matmul_relu_kernel.cu'), '-o', so], check=True)
        with open(so, 'rb') as f:
            inline = base64.b64encode(f.read()).decode()
        for load in ({'path': so}, {'so_base64': inline}):
            r = self.w.ask(op='load', slot='reference', path=os.path.join(DATA, 'matmul_relu.py'))
            self.assertTrue(r['ok'], r)
            r = self.w.ask(op='load', slot='candidate', **load)
            self.assertTrue(r['ok'], r)
            self.assertEqual(r['result']['kind'] if 'result' in r else r['kind'], 'cu')
            r = self.w.ask(op='evaluate', task=self.matmul, options=FAST)
            self.assertTrue(r['ok'], r)
            if DEVICE == 'cpu' or not torch.cuda.is_available():
                self.verdict(r['result'], 'load_error', 'step compile', 'needs a GPU')
            else:
                self.verdict(r['result'], 'correct')
        shutil.rmtree(folder, ignore_errors=True)
        r = self.w.ask(op='load', slot='reference', path=so)
        self.assertFalse(r['ok'])


class MedianCiTest(unittest.TestCase):
    def test_interval(self):
        sys.path.insert(0, os.path.dirname(WORKER))
        from kforge_torchworker.evaluate import median_ci
        self.assertIsNone(median_ci([1.0] * 7)['half_width'])  # unbounded below 8 samples
        r = median_ci([float(x) for x in range(1, 101)])  # n 100: j 40, k 61 -> [40, 61], median 50.5
        self.assertEqual((r['ci_low_ms'], r['ci_high_ms']), (40.0, 61.0))
        self.assertAlmostEqual(r['half_width'], 10.5 / 50.5)
        self.assertEqual(median_ci([2.0] * 50)['half_width'], 0.0)


class TracePassTest(unittest.TestCase):
    """The trace pass's summary from the injection library's JSON lines (tracepass.py): items by run window."""

    def test_kernels_by_run_window(self):
        sys.path.insert(0, os.path.dirname(WORKER))
        from kforge_torchworker import tracepass

        def kernel(name, start, dur, stream=7):
            return {'type': 'kernel', 'name': name, 'mangled': '_Z' + name, 'start_ns': start, 'end_ns': start + dur,
                    'duration_ns': dur, 'stream': stream, 'grid': [4, 1, 1], 'block': [256, 1, 1], 'registers': 30,
                    'static_smem': 0, 'dynamic_smem': 0}
        lines = [{'type': 'header', 'format': 'kforge-trace'},
                 kernel('flush', 0, 500),  # before run 1's window: not counted
                 kernel('gemm', 1000, 3000), kernel('bias', 4200, 400, stream=9),
                 kernel('flush', 6000, 500),
                 kernel('gemm', 7000, 3200), kernel('bias', 10300, 600, stream=9),
                 {'type': 'memset', 'copy_kind': '', 'bytes': 64, 'start_ns': 10000, 'end_ns': 10100},
                 {'type': 'summary', 'records': 7, 'dropped': 0}]
        side, counts = tracepass.summarize(lines, [(900, 5000), (6900, 11000)])
        self.assertEqual(side['runs'], 2)
        self.assertEqual(side['launches_per_run'], 2)
        self.assertEqual(counts['untimed_ignored'], 2)
        self.assertEqual([k['name'] for k in side['kernels']], ['gemm', 'bias'])  # largest total first
        self.assertEqual(side['kernels'][0]['per_run'], 1.0)
        self.assertAlmostEqual(side['kernel_time_ms']['median'], (3.4e-3 + 3.8e-3) / 2)
        self.assertAlmostEqual(side['kernel_time_ms']['min'], 3.4e-3)
        # busy: run 2's memset overlaps its gemm, so busy < kernels + memory
        self.assertAlmostEqual(side['gpu_time_ms']['max'], 3.9e-3)
        self.assertAlmostEqual(side['busy_time_ms']['max'], 3.8e-3)
        self.assertEqual(side['streams'], [7, 9])
        self.assertEqual(side['memory'][0]['count'], 1)
        combined = tracepass.combine({'side': side, 'counts': counts}, {'problem': 'CUPTI busy'})
        self.assertEqual(combined, {'available': False, 'problem': 'CUPTI busy'})
        combined = tracepass.combine({'side': side, 'counts': counts}, {'side': side, 'counts': counts})
        self.assertTrue(combined['available'])
        self.assertEqual(combined['kernels_seen'], 8)


class WireTest(unittest.TestCase):
    """What a host sends is parsed as JSON plus raw bytes of known dtypes, nothing else."""

    def setUp(self):
        sys.path.insert(0, os.path.join(os.path.dirname(WORKER)))
        from kforge_torchworker import wire
        self.wire = wire
        self.r, self.w = os.pipe()

    def tearDown(self):
        os.close(self.r)
        os.close(self.w)

    def roundtrip(self, data, limit=None):
        os.write(self.w, data)
        return self.wire.Reader(self.r, limit).receive(deadline=__import__('time').monotonic() + 5)

    def test_tensors_keep_dtype_and_bits(self):
        sent = [torch.tensor([1.5, float('nan'), -0.0]), torch.arange(6, dtype=torch.int64).reshape(2, 3),
                torch.tensor([True, False]), torch.randn(4).to(torch.bfloat16), torch.empty(0, 3)]
        self.wire.send(self.w, {'op': 'x', 'n': 1}, sent)
        header, got = self.wire.Reader(self.r).receive(deadline=__import__('time').monotonic() + 5)
        self.assertEqual(header, {'op': 'x', 'n': 1})
        for a, b in zip(sent, got):
            self.assertEqual((a.dtype, a.shape), (b.dtype, b.shape))
            self.assertTrue(torch.equal(a.reshape(-1).view(torch.uint8), b.reshape(-1).view(torch.uint8)))

    def test_tensors_larger_than_the_pipe_cross_whole(self):
        # Several MiB per tensor: the writer blocks many times, the reader reads straight into the tensor's
        # buffer (readv) after what it had buffered already; a non-contiguous tensor is sent as its values.
        import threading
        self.wire.widen(self.w)
        sent = [torch.randn(3 << 20), torch.arange(1 << 20, dtype=torch.int32).reshape(1024, 1024).t(),
                torch.randint(0, 255, (5 << 20,), dtype=torch.uint8)]
        writer = threading.Thread(target=self.wire.send, args=(self.w, {'op': 'big'}, sent))
        writer.start()
        header, got = self.wire.Reader(self.r).receive(deadline=__import__('time').monotonic() + 30)
        writer.join()
        self.assertEqual(header, {'op': 'big'})
        for a, b in zip(sent, got):
            self.assertEqual((a.dtype, tuple(a.shape)), (b.dtype, tuple(b.shape)))
            self.assertTrue(torch.equal(a, b))

    def frame(self, header, payload=b''):
        head = json.dumps(header).encode()
        return len(head).to_bytes(8, 'little') + head + payload

    def test_forged_messages_are_refused(self):
        bad = [self.frame({'tensors': [{'dtype': 'object', 'shape': [1], 'nbytes': 8}]}, b'\0' * 8),
               self.frame({'tensors': [{'dtype': 'f32', 'shape': [4], 'nbytes': 8}]}, b'\0' * 8),
               self.frame({'tensors': [{'dtype': 'f32', 'shape': [-1], 'nbytes': 0}]}),
               self.frame({'tensors': 'x'}),
               (4).to_bytes(8, 'little') + b'\x80\x04K.']
        for data in bad:
            with self.assertRaises(self.wire.WireError, msg=data[:60]):
                self.roundtrip(data)
            os.close(self.r)
            os.close(self.w)
            self.r, self.w = os.pipe()
        with self.assertRaises(self.wire.WireError):
            self.roundtrip(self.frame({'tensors': [{'dtype': 'u8', 'shape': [64], 'nbytes': 64}]}, b'\0' * 64), 32)


if __name__ == '__main__':
    WORKER = sys.argv.pop(1)
    unittest.main()
