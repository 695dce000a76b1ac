"""One evaluation of a torch task: a fresh reference host and candidate host, verification, timing, the result.

The judge draws the seed, makes every input, receives outputs as plain bytes and compares them itself; the hosts
only run modules. Result shape: docs/worker-protocol.md "EvalResult" (differences: docs/torch-worker.md)."""

import math
import os
import random
import statistics
import time

from . import spec
from .checks import Checks, Verdict
from .hostproc import HostFailure, HostProcess
from .timing import ExternalClock, batch_calls, median_ci, stats  # noqa: F401 (median_ci: the tests')

SECURE = random.SystemRandom()
KEEP_ALL_BYTES = 8 << 20  # timed outputs of a batch up to this size are all sent back and compared


def arg_message(args):
    """The forward arguments as a host request: tensors by index, scalars by value."""
    header, tensors = [], []
    for a in args:
        if hasattr(a, 'dtype') and hasattr(a, 'shape'):
            header.append({'tensor': len(tensors)})
            tensors.append(a)
        else:
            header.append({'value': a})
    return header, tensors


class Exchange:
    """The judge's device buffers of one evaluation on a CUDA worker (gpuipc.py): per host, an input buffer per
    tensor argument of each input set ('v' for the verification trials, 't0', 't1' for timing), output buffers
    per declared output for the trials and for the kept timed calls. A host is lent its own buffers only."""

    def __init__(self, task, device):
        from . import gpuipc
        self.gpuipc, self.task, self.device = gpuipc, task, device
        gpuipc.ensure_context(device)
        self.buffers, self.lent = {}, {'reference': [], 'candidate': []}
        self.inputs = {'reference': {}, 'candidate': {}}
        self.outputs = {'reference': {}, 'candidate': {}}
        for side in self.inputs:
            for name in ('v', 't0', 't1'):
                self.inputs[side][name] = [None if 'value' in a else self.alloc(side, a['dtype'], a['shape'])
                                           for a in task.args]
            self.outputs[side]['v'] = self.output_set(side)

    def alloc(self, side, dtype, shape):
        key = str(len(self.buffers))
        self.buffers[key] = self.gpuipc.SharedBuffer(spec.DTYPES[dtype], shape, self.device)
        self.lent[side].append(key)
        return key

    def output_set(self, side):
        return [self.alloc(side, o['dtype'], o['shape']) for o in self.task.outputs]

    def tensor(self, key):
        return self.buffers[key].tensor

    def lend(self, evaluation, side, host):
        entries = {k: self.buffers[k].describe(spec.NAMES) for k in self.lent[side]}
        evaluation.ask(host, {'op': 'map', 'buffers': entries}, [], 'lending the %s its buffers' % side)

    def fill(self, side, set_name, args):
        for a, key in zip(args, self.inputs[side][set_name]):
            if key is not None:
                self.tensor(key).copy_(a)

    def arg_header(self, side, set_name, args):
        return [{'buf': key} if key is not None else {'value': a}
                for a, key in zip(args, self.inputs[side][set_name])]

    def staged(self, side, set_name):
        return [self.tensor(k) for k in self.inputs[side][set_name] if k is not None]

    def free(self):
        for b in self.buffers.values():
            b.free()
        self.buffers = {}


class WarmReference:
    """A reference host kept by the judge between evaluations of the same reference (judge.py): its module
    loaded, its load answer (init args, state dict) kept, every buffer of the last evaluation unmapped. Only a
    host CUPTI never traced is kept; the judge keeps the reference's trace itself (judge.reference_traces)."""

    def __init__(self, host, digest, device, task_key, info, state, seed):
        self.host, self.digest, self.device, self.task_key = host, digest, device, task_key
        self.info, self.state, self.seed = info, state, seed
        self.evaluations = 0

    def fits(self, digest, device, task_key):
        return (self.digest, self.device, self.task_key) == (digest, device, task_key) and self.host.alive()


class Evaluation(Checks):
    def __init__(self, task, reference, candidate, options, device, setup, hosts=None):
        self.task, self.options, self.device, self.setup = task, options, device, setup
        self.reference_path, self.candidate_path = reference, candidate
        self.cand_name = os.path.basename(candidate)
        self.ref_name = os.path.basename(reference)
        seed = options.get('seed')
        self.seed = int(seed) if seed is not None else int.from_bytes(os.urandom(8), 'little') >> 1
        trials = options.get('trials', 5)
        if not isinstance(trials, int) or not 2 <= trials <= 1000:
            raise ValueError('trials: %r is not an integer within 2..1000' % (trials,))
        for key in ('warmup', 'min_runs', 'max_runs', 'min_time_ms', 'max_time_ms', 'ci_target', 'min_batch_calls'):
            if key in options and (not isinstance(options[key], (int, float)) or options[key] < 0):
                raise ValueError('%s: %r is not a number >= 0' % (key, options[key]))
        self.trials = trials
        self.started = time.monotonic()
        self.deadline = self.started + 0.8 * task.timeout_s
        self.flags, self.warnings = [], []
        self.verification = {'trials': 0, 'elements': 0, 'calls_compared': 0, 'mismatches': 0, 'max_abs_err': 0.0,
                             'max_rel_err': 0.0, 'nan_count': 0, 'inf_count': 0, 'first_mismatch': None,
                             'input_mutated': False, 'mutated_inputs': [], 'output_depends_on_inputs': None,
                             'reference_cached': 0, 'outputs': [], 'reason': '', 'timed_outputs_checked': 0}
        self.ref = self.cand = None
        self.hosts = hosts or (lambda role, path, device: HostProcess(role, path, device))
        self.build_cache = None  # the candidate's load_inline extensions: built or found (buildcache.py)
        self.exchange = None  # Exchange on a CUDA worker (unless options.exchange is "pipe")
        self.exchange_note = ''
        self.load_parts = {}
        # The judge's warm reference for this reference (WarmReference) or None; keep_reference: this
        # evaluation's reference host may serve the next one (set at the end of run()).
        self.warm = None
        self.ref_trace = None  # the reference side of this evaluation's trace pass (the judge keeps it)
        self.ref_trace_cached = None  # the judge's: the same reference's trace from an earlier evaluation
        self.keep_reference = False
        self.ref_failed = False
        self.ref_traced = False
        self.reference_seed = None
        self.ref_info = self.ref_state = None
        self.defer_close = None  # the judge's: close() after the reply (judge.py), else at the end of run()
        # the judge's: waits, before timing, for what must not overlap it (the last evaluation's close, spares
        # still booting); returns those waits as phases_s entries
        self.before_timing = None

    # ---- hosts -------------------------------------------------------------------------------------------

    def ask(self, host, header, tensors, phase):
        answer, out = host.request(header, tensors, self.deadline, phase)
        if not answer.get('ok'):
            step = answer.get('step', '?')
            verdict = 'load_error' if step in ('import', 'lookup', 'get_init_inputs', 'construct',
                                               'load_state_dict', 'to_device', 'compile', 'load') else 'crashed'
            who = 'the reference' if host is self.ref else 'the candidate'
            raise Verdict(verdict, '%s: %s failed at step %s%s: %s' % (
                host.name, who, step, (' (%s)' % phase) if step in ('forward', 'timing') else '',
                answer.get('cause', '')), error_code='python_exception', step=step)
        return answer, out

    def load(self):
        started = time.monotonic()
        parts = self.load_parts = {}

        def part(name):  # the load phase's parts: hosts taken (booted unless spares), each side loaded, lent
            nonlocal started
            now = time.monotonic()
            parts[name] = round(now - started, 3)
            started = now
        warm = self.warm
        self.ref = warm.host if warm is not None else self.hosts('reference', self.reference_path, self.device)
        self.cand = self.hosts('candidate', self.candidate_path, self.device)
        part('hosts')
        from . import buildcache
        import torch
        kind = 'cuda' if self.device.startswith('cuda') else 'cpu'
        if warm is not None:  # loaded by an earlier evaluation: the same module, weights and state dict
            info, state, self.reference_seed = warm.info, warm.state, warm.seed
        else:
            self.reference_seed = spec.splitmix64(self.seed, 1 << 20)
            info, state = self.ask(self.ref, {'op': 'load', 'path': self.reference_path,
                                              'seed': self.reference_seed,
                                              'init_args': self.task.init_inputs,
                                              'build_cache': buildcache.directory_for(self.reference_path,
                                                                                      torch.__version__, kind)},
                                     [], 'loading the reference')
            self.ref_info, self.ref_state = info, state
            self.boot_wait('reference', info, started)
        part('reference')
        outputs = [dict(o, torch_dtype=str(spec.DTYPES[o['dtype']]).replace('torch.', ''))
                   for o in self.task.outputs]
        header = {'op': 'load', 'path': self.candidate_path, 'seed': spec.splitmix64(self.seed, (1 << 20) + 1),
                  'init_args': info['init_args'], 'state_keys': info['state_keys'],
                  'param_names': info['param_names'], 'buffer_names': info['buffer_names'], 'outputs': outputs,
                  'params': self.task.params, 'arg_names': [a['name'] for a in self.task.args]}
        header.update(self.setup)
        if self.candidate_path.endswith('.py'):
            header['build_cache'] = buildcache.directory_for(self.candidate_path, torch.__version__, kind)
        sent = time.monotonic()
        answer, _ = self.ask(self.cand, header, state, 'loading the candidate')
        self.boot_wait('candidate', answer, sent)
        part('candidate')
        builds = answer.get('builds') if isinstance(answer.get('builds'), list) else []
        self.build_cache = {'extensions': [b for b in builds if isinstance(b, dict)][:16],
                            'hits': sum(1 for b in builds if isinstance(b, dict) and b.get('hit') is True),
                            'builds': sum(1 for b in builds if isinstance(b, dict) and b.get('hit') is False)}
        if self.device.startswith('cuda') and self.options.get('exchange', 'ipc') == 'ipc':
            from .gpuipc import IpcError
            try:
                self.exchange = Exchange(self.task, self.device)
            except (IpcError, RuntimeError) as e:  # e.g. no driver symbol: the pipes, and the result says why
                self.exchange_note = 'CUDA IPC unavailable (%s): tensors crossed the pipes' % e
            if self.exchange is not None:
                self.exchange.lend(self, 'reference', self.ref)
                self.exchange.lend(self, 'candidate', self.cand)
            part('lend')

    def boot_wait(self, side, answer, sent):
        """From a host's load answer: how long the judge waited for the host to finish booting (a spare started
        too late), and the load's own time in the host."""
        ready = answer.get('ready_at')
        if isinstance(ready, (int, float)):
            self.load_parts[side + '_boot_wait'] = round(max(0.0, ready - sent), 3)
        if isinstance(answer.get('load_s'), (int, float)):
            self.load_parts[side + '_in_host'] = round(answer['load_s'], 3)

    def make_args(self, seed):
        return self.task.make_args(seed, self.device if self.exchange is not None else 'cpu')

    def release(self):
        """Before the reply: nothing of this evaluation's memory stays mapped in a reference host that lives on
        (the next evaluation may use it while close() still runs)."""
        if self.keep_reference and self.ref is not None:
            try:
                self.ref.request({'op': 'map', 'buffers': {}}, [], time.monotonic() + 5, 'unmapping the reference')
            except HostFailure:
                self.keep_reference = False

    def close(self):
        """The hosts ended (a kept reference host excepted), then the judge's buffers freed."""
        for host in (self.ref, self.cand):
            if host is not None and not (host is self.ref and self.keep_reference):
                host.close()
        if self.exchange is not None:  # after the hosts: no mapping of a buffer outlives it
            self.exchange.free()

    def run_both_lent(self, args, set_name, phase, fill=True):
        """run_both on a CUDA worker: the inputs in each host's own buffers, the outputs into its buffers; the
        inputs 'after' are the judge's reading of those buffers."""
        import torch
        ex = self.exchange
        if fill:
            for side in ('reference', 'candidate'):
                ex.fill(side, set_name, args)
        torch.cuda.synchronize(self.device)
        results = []
        for side, host in (('reference', self.ref), ('candidate', self.cand)):
            request = {'op': 'run', 'args': ex.arg_header(side, set_name, args), 'out': ex.outputs[side]['v']}
            ans, out = self.ask(host, request, [], 'the %s, %s' % (side, phase))
            results.append((self.lent_outputs(ans.get('outputs', []), out, side, phase), ex.staged(side, set_name)))
        return results[0], results[1]

    def lent_outputs(self, kinds, out, side, phase):
        outputs = []
        for k in kinds:
            if 'buf' in k and str(k['buf']) in self.exchange.buffers:
                outputs.append(self.exchange.tensor(str(k['buf'])))
            elif 'tensor' in k and isinstance(k['tensor'], int) and 0 <= k['tensor'] < len(out):
                outputs.append(out[k['tensor']])
            elif 'tensor' in k or 'buf' in k:
                raise Verdict('crashed', '%s: the %s host named an output it did not send (%s)'
                              % (self.cand_name if side == 'candidate' else self.ref_name, side, phase))
            else:
                outputs.append(k.get('type', '?'))
        return outputs

    def run_both(self, args, phase):
        header, tensors = arg_message(args)
        request = {'op': 'run', 'args': header}
        ref_ans, ref_out = self.ask(self.ref, request, tensors, 'the reference, ' + phase)
        # What the candidate may send back in one message: what the reference sent, with room, never gigabytes
        # that the judge would have to hold.
        sent = sum(t.numel() * t.element_size() for t in ref_out)
        self.cand.reader.limit = max(self.cand.reader.limit or 0, (64 << 20) + 4 * sent + KEEP_ALL_BYTES)
        cand_ans, cand_out = self.ask(self.cand, request, tensors, 'the candidate, ' + phase)
        return self.split(ref_ans, ref_out, tensors, 'reference', phase), \
            self.split(cand_ans, cand_out, tensors, 'candidate', phase)

    def split(self, answer, out, inputs, side, phase):
        kinds = answer.get('outputs', [])
        n = sum(1 for k in kinds if 'tensor' in k)
        if len(out) != n + len(inputs):
            raise Verdict('crashed', '%s: the %s host answered %d tensors for %d outputs and %d inputs (%s)'
                          % (self.cand_name if side == 'candidate' else self.ref_name, side, len(out), n,
                             len(inputs), phase))
        outputs = [out[k['tensor']] if 'tensor' in k else k.get('type', '?') for k in kinds]
        return outputs, out[n:]

    # ---- verification ------------------------------------------------------------------------------------

    def verify(self):
        v = self.verification
        trials = self.trials
        first_outputs = []
        for t in range(trials):
            trial_seed = spec.splitmix64(self.seed, t)
            args = self.make_args(trial_seed)
            originals = [a.clone() for a in args if hasattr(a, 'dtype')] if self.exchange is None else \
                [a for a in args if hasattr(a, 'dtype')]  # the judge's own copies: the hosts get buffers
            phase = 'trial %d (seed %d)' % (t + 1, trial_seed)
            if self.exchange is not None:
                (ref_out, ref_after), (cand_out, cand_after) = self.run_both_lent(args, 'v', phase)
            else:
                (ref_out, ref_after), (cand_out, cand_after) = self.run_both(args, phase)
            if self.mutated(originals, ref_after) and 'reference_mutates_inputs' not in self.flags:
                self.flags.append('reference_mutates_inputs')
            if t < 2:
                first_outputs.append([e.clone() if hasattr(e, 'clone') else e for e in ref_out])
            v['elements'] = sum(e.numel() for e in ref_out if hasattr(e, 'numel'))
            self.check(ref_out, cand_out, phase, trial_seed)
            changed = self.mutated(originals, cand_after)
            if changed:
                v['input_mutated'], v['mutated_inputs'] = True, changed
                v['reason'] = '%s: the candidate changed its input%s %s (%s)' % (
                    self.cand_name, 's' if len(changed) > 1 else '', ', '.join(changed), phase)
                raise Verdict('incorrect', v['reason'])
            v['trials'] = t + 1
        same = all(spec.identical(a, b) for a, b in zip(first_outputs[0], first_outputs[1]))
        v['output_depends_on_inputs'] = not same
        if same or self.task.declared_degenerate:
            self.flags.append('degenerate_output')
            self.warnings.append('The reference output does not depend on the inputs: two input sets gave '
                                 'bitwise identical outputs; a constant-writing candidate passes this task.')

    # ---- timing ------------------------------------------------------------------------------------------

    def external_figures(self, timing, ext, ext_base, calls):
        """Per side, the judge's own per-call figure: (median batch - median frame) / calls, from its events
        around each batch (ExternalClock). The host's figure (its events around each call) gives the
        distribution; a host figure below the judge's beyond noise is `timing_mismatch`, and the judge's
        figure wins."""
        for side in ('reference', 'candidate'):
            n = calls[side]
            if not ext[side] or not ext_base[side]:
                continue
            judge_ms = max(0.0, (statistics.median(ext[side]) - statistics.median(ext_base[side])) / n)
            host_ms = timing[side]['median_ms']
            t = timing[side]
            t['external_ms'] = judge_ms
            t['external_batches'] = len(ext[side])
            t['host_ms'] = host_ms
            # The judge's share of a batch holds more than the host's window around a call: the write-back of
            # the outputs the call left dirty in L2 (paid by the next call's flush) and the host's per-call
            # Python framing. Measured on the H200: diag_matmul's broadcast ModelNew 0.064 ms by the host, 0.078
            # by the judge (+22%); rowscale.cu 0.039 and 0.050 (+28%). So a mismatch is a host figure under the
            # judge's by more than half, plus 20 us and the frame's spread per call: a falsified clock, not the
            # honest difference (the host-clock cheat: 0.001 ms against 3 ms).
            spread = (max(ext_base[side]) - min(ext_base[side])) / n if len(ext_base[side]) > 1 else 0.0
            if judge_ms > host_ms * 1.5 + spread + 0.02:
                if 'timing_mismatch' not in self.flags:
                    self.flags.append('timing_mismatch')
                self.warnings.append('timing_mismatch: the %s host measured %.4g ms per call, the judge %.4g ms '
                                     'per call around its batches; the judge\'s figure is used.'
                                     % (side, host_ms, judge_ms))
                t['median_ms'] = judge_ms
        timing['speedup'] = timing['reference']['median_ms'] / max(timing['candidate']['median_ms'], 1e-9)

    @staticmethod
    def net(samples, baselines):
        base = statistics.median(baselines) if baselines else 0.0
        return [max(0.0, x - base) for x in samples]

    @staticmethod
    def times(values, count, host, side):
        if not isinstance(values, list) or len(values) != count or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x >= 0
                for x in values):
            raise Verdict('crashed', '%s: the %s host sent no valid list of %d times' % (host.name, side, count))
        return [float(x) for x in values]

    def time_both(self):
        o = self.options
        warmup, min_runs = int(o.get('warmup', 10)), int(o.get('min_runs', 100))
        target = float(o.get('ci_target', 0.01))  # adaptive (as kforge-worker's): 0 is the fixed rule
        if not 0 <= target <= 0.5:
            raise ValueError('ci_target: %r is not within 0..0.5' % target)
        min_time_ms = float(o.get('min_time_ms', 100 if target > 0 else 1000))
        max_time_ms = max(float(o.get('max_time_ms', 5000)), min_time_ms)
        max_runs = int(o.get('max_runs', 10000))
        min_batch = min(256, max(1, int(o.get('min_batch_calls', 1))))
        stopped_by = ''
        budget_end = self.started + 0.5 * self.task.timeout_s
        sets, expected = [], []
        stage = []
        ex = self.exchange
        # where the timing's wall time goes (timing.parts_s): the timing sets checked and staged, the warm-up,
        # the timed batches, their frames, the kept outputs read and compared, the rest of the rounds' loop
        parts = dict.fromkeys(('sets', 'warmup', 'batches', 'frames', 'kept', 'checks'), 0.0)
        part_start = time.monotonic()
        for i in range(2):
            set_seed = spec.splitmix64(self.seed, (1 << 30) + i)
            args = self.make_args(set_seed)
            phase = 'timing set %d (seed %d)' % (i, set_seed)
            if ex is not None:  # run on the staged buffers themselves, then check they are as the judge made them
                (ref_out, ref_after), (cand_out, cand_after) = self.run_both_lent(args, 't%d' % i, phase)
                self.check(ref_out, cand_out, 'timing set %d' % i, set_seed)
                originals = [a for a in args if hasattr(a, 'dtype')]
                changed = self.mutated(originals, cand_after)
                if changed:
                    v = self.verification
                    v['input_mutated'], v['mutated_inputs'] = True, changed
                    v['reason'] = '%s: the candidate changed its input%s %s (%s)' % (
                        self.cand_name, 's' if len(changed) > 1 else '', ', '.join(changed), phase)
                    raise Verdict('incorrect', v['reason'])
                if self.mutated(originals, ref_after):
                    ex.fill('reference', 't%d' % i, args)
                ref_out = [e.clone() if hasattr(e, 'clone') else e for e in ref_out]
            else:
                (ref_out, _), (cand_out, _) = self.run_both(args, phase)
                self.check(ref_out, cand_out, 'timing set %d' % i, set_seed)
                stage.append(arg_message(args))
            sets.append(args)
            expected.append(ref_out)
        if ex is not None:
            for side, host in (('reference', self.ref), ('candidate', self.cand)):
                headers = [ex.arg_header(side, 't%d' % i, args) for i, args in enumerate(sets)]
                self.ask(host, {'op': 'stage', 'sets': headers}, [], 'staging the timing inputs')
        else:
            headers, tensors = [], []
            for h, ts in stage:
                headers.append([{'tensor': a['tensor'] + len(tensors)} if 'tensor' in a else a for a in h])
                tensors += ts
            for host in (self.ref, self.cand):
                self.ask(host, {'op': 'stage', 'sets': headers}, tensors, 'staging the timing inputs')
        out_bytes = sum(e.numel() * e.element_size() for e in expected[0] if hasattr(e, 'numel'))
        parts['sets'] = time.monotonic() - part_start
        part_start = time.monotonic()
        samples = {'reference': [], 'candidate': []}
        baselines = {'reference': [], 'candidate': []}
        calls = {'reference': max(1, warmup), 'candidate': max(1, warmup)}
        for side, host in (('reference', self.ref), ('candidate', self.cand)):
            ans, _ = self.ask(host, {'op': 'time', 'set': 0, 'calls': calls[side], 'baseline_calls': 0}, [],
                              'warming up the ' + side)
            calls[side] = max(min_batch, batch_calls(statistics.median(self.times(ans.get('times_ms'),
                                                                                    calls[side], host, side))))
        parts['warmup'] = time.monotonic() - part_start
        keep_sets = []  # large outputs on a CUDA worker: the kept timed calls' outputs into lent buffers
        if ex is not None and out_bytes * calls['candidate'] > KEEP_ALL_BYTES and ex.task.outputs:
            keep_sets = [ex.output_set('candidate') for _ in range(min(calls['candidate'], 2))]
            ex.lend(self, 'candidate', self.cand)
        clock = None
        if ex is not None and self.options.get('external', True) is not False:
            try:
                clock = ExternalClock(self, ex.device)
            except RuntimeError as e:  # no interprocess events here: the hosts' own figures, and a warning
                self.warnings.append('External timing unavailable (%s): the figures are the hosts\' own.' % e)
        ext = {'reference': [], 'candidate': []}
        ext_base = {'reference': [], 'candidate': []}
        batch_means = {'reference': [], 'candidate': []}  # per batch, its calls' mean: the stability flag's samples
        loop_start, rounds, checked = time.monotonic(), 0, 0
        all_checked = True
        while True:
            elapsed_ms = (time.monotonic() - loop_start) * 1000.0
            done = min(len(samples['reference']), len(samples['candidate']))
            # adaptive: min_runs counts the side with more calls, as kforge-worker's (the interval is over
            # batches, so a long reference's few calls per batch need no more rounds than the short side's)
            most = max(len(samples['reference']), len(samples['candidate']))
            if rounds >= 5:
                if done >= max_runs:
                    stopped_by = 'max_runs'
                elif time.monotonic() > budget_end:
                    stopped_by = 'max_time'
                elif target <= 0 and done >= min_runs and elapsed_ms >= min_time_ms:
                    stopped_by = 'fixed'
                elif target > 0 and most >= min_runs and elapsed_ms >= min_time_ms:
                    widths = [median_ci(self.net(samples[side], baselines[side]))['half_width']
                              for side in ('reference', 'candidate')] if rounds >= 8 else [None]
                    if all(w is not None and w <= target for w in widths):
                        stopped_by = 'target'
                    elif elapsed_ms >= max_time_ms:
                        stopped_by = 'max_time'
                if stopped_by:
                    break
            set_index = rounds % len(sets)
            order = [('reference', self.ref), ('candidate', self.cand)]
            SECURE.shuffle(order)
            for side, host in order:
                n = calls[side]
                if side == 'candidate' and out_bytes * n <= KEEP_ALL_BYTES:
                    keep = list(range(n))
                elif side == 'candidate':
                    keep = sorted(SECURE.sample(range(n), min(n, 2)))
                    all_checked = False
                else:
                    keep = []
                request = {'op': 'time', 'set': set_index, 'calls': n, 'keep': keep, 'baseline_calls': min(n, 5)}
                if side == 'candidate' and keep_sets:
                    request['keep_out'] = keep_sets[:len(keep)]
                if clock is not None:
                    t_part = time.monotonic()
                    ans, _, ms = clock.batch(side, host, dict(request, external='calls', defer_kept=True),
                                             'timing the %s (round %d)' % (side, rounds + 1))
                    ext[side].append(ms)
                    parts['batches'] += time.monotonic() - t_part
                    t_part = time.monotonic()
                    if keep:  # outside the judge's window, as the frame has no outputs to send
                        kept_ans, kept = self.ask(host, {'op': 'kept'}, [], 'reading the %s\'s timed outputs '
                                                  '(round %d)' % (side, rounds + 1))
                        if 'kept' in kept_ans:
                            ans = dict(ans, kept=kept_ans['kept'])
                    else:
                        kept = []
                    parts['kept'] += time.monotonic() - t_part
                    t_part = time.monotonic()
                    if rounds % 2 == 1:  # the same batch without the calls: the crossing and the per-call frame
                        _, _, base_ms = clock.batch(side, host, {'op': 'time', 'set': set_index, 'calls': 0,
                                                                 'baseline_calls': n, 'external': 'baseline'},
                                                    'timing the %s\'s frame (round %d)' % (side, rounds + 1))
                        ext_base[side].append(base_ms)
                    parts['frames'] += time.monotonic() - t_part
                else:
                    t_part = time.monotonic()
                    ans, kept = self.ask(host, request, [], 'timing the %s (round %d)' % (side, rounds + 1))
                    parts['batches'] += time.monotonic() - t_part
                t_part = time.monotonic()
                times, base = self.times(ans.get('times_ms'), n, host, side), self.times(
                    ans.get('baseline_ms'), min(n, 5), host, side)
                samples[side] += times
                baselines[side] += base
                batch_means[side].append(statistics.fmean(times))
                if side == 'candidate' and keep_sets:
                    lists = ans.get('kept')
                    if not isinstance(lists, list) or len(lists) != len(keep) or not all(
                            isinstance(k, list) for k in lists):
                        raise Verdict('incorrect', '%s: timed run outputs missing (round %d)' % (
                            self.cand_name, rounds + 1))
                    for j, index in enumerate(keep):
                        self.check(expected[set_index], self.lent_outputs(lists[j], kept, side, 'timing'),
                                   'timed round %d, call %d' % (rounds + 1, index), None)
                        checked += 1
                elif side == 'candidate':
                    per = len(expected[set_index])
                    if len(kept) != per * len(keep):
                        raise Verdict('incorrect', '%s: timed run outputs missing (%d of %d)' % (
                            self.cand_name, len(kept), per * len(keep)))
                    self.check_calls(expected[set_index], [kept[j * per:(j + 1) * per] for j in range(len(keep))],
                                     lambda j, r=rounds: 'timed round %d, call %d' % (r + 1, keep[j]))
                    checked += len(keep)
                parts['checks'] += time.monotonic() - t_part
            rounds += 1
        self.verification['timed_outputs_checked'] = checked
        if ex is not None:  # the judge reads the candidate's staged buffers itself
            after = ex.staged('candidate', 't0') + ex.staged('candidate', 't1')
        else:
            _, after = self.ask(self.cand, {'op': 'sets'}, [], 'reading the timing inputs back')
        originals = [a for s in sets for a in s if hasattr(a, 'dtype')]
        changed = sorted(set(self.mutated(originals, after)))
        if changed:
            v = self.verification
            v['input_mutated'], v['mutated_inputs'] = True, changed
            v['reason'] = '%s: the candidate changed its input %s while it was timed' % (
                self.cand_name, ', '.join(changed))
            raise Verdict('incorrect', v['reason'])
        timing = {}
        adaptive = {'target': target, 'reached': False, 'stopped_by': stopped_by, 'rounds': rounds,
                    'min_rounds': 8}
        for side in samples:
            base = statistics.median(baselines[side]) if baselines[side] else 0.0
            net = self.net(samples[side], baselines[side])
            timing[side] = stats(net)
            timing[side]['baseline_ms'] = base
            # unstable_timing as kforge-worker's: the CV over batches (each batch's per-call figure), not over
            # single calls, where a few outliers (a page fault, a context switch) inflate it while the median
            # stays within its interval.
            per_batch = [max(0.0, m - base) for m in batch_means[side]]
            mean = statistics.fmean(per_batch) if per_batch else 0.0
            timing[side]['batch_cv'] = (statistics.pstdev(per_batch) / mean
                                        if len(per_batch) > 1 and mean > 0 else 0.0)
            adaptive[side] = median_ci(net)
        if clock is not None:
            self.external_figures(timing, ext, ext_base, calls)
        adaptive['reached'] = target > 0 and all(
            adaptive[side]['half_width'] is not None and adaptive[side]['half_width'] <= target
            for side in ('reference', 'candidate'))
        timing['adaptive'] = adaptive
        parts['loop'] = time.monotonic() - loop_start - sum(parts[k] for k in ('batches', 'frames', 'kept', 'checks'))
        timing['parts_s'] = {k: round(v, 4) for k, v in parts.items()}
        timing['speedup'] = timing['reference']['median_ms'] / max(timing['candidate']['median_ms'], 1e-9)
        timing.update({'external': clock is not None, 'device': 'cuda' if self.device.startswith('cuda') else 'cpu',
                       'batches': rounds, 'batch_calls': calls['candidate'],
                       'reference_batch_calls': calls['reference'], 'all_timed_outputs_checked': all_checked,
                       'interleaved': True, 'l2_flushed': self.device.startswith('cuda'), 'rotated_sets': True})
        for side in ('reference', 'candidate'):
            if timing[side]['batch_cv'] > 0.1 and 'unstable_timing' not in self.flags:
                self.flags.append('unstable_timing')
        return timing

    def trace_pass(self):
        """CUPTI's record of the kernels of a few more runs on each side (tracepass.py); never a verdict."""
        from . import tracepass
        library = tracepass.find_library()
        if not library:
            return {'available': False, 'problem': '%s not found (set KFORGE_INJECT_LIB, or install KForge\'s '
                                                   'lib/kforge/)' % tracepass.LIBRARY}
        runs = int(self.options.get('trace_runs', 10))
        answers = {}
        if self.ref_trace_cached is not None:
            answers['reference'] = dict(self.ref_trace_cached, reused=True)
        for side, host in (('candidate', self.cand), ('reference', self.ref)):
            if side in answers:
                continue
            if side == 'reference':
                self.ref_traced = True  # CUPTI stays in a process once enabled: this host is not kept
            try:
                answers[side], _ = host.request({'op': 'trace', 'library': library, 'runs': runs, 'set': 0}, [],
                                                self.deadline, 'tracing the ' + side)
            except HostFailure as f:  # the pass runs the candidate once more: its failure costs the trace only
                answers[side] = {'problem': 'the %s\'s process ended in the trace pass (%s): %s' % (
                    side, f.verdict, f.message)}
            if not answers[side].get('ok', True) and 'problem' not in answers[side]:
                answers[side] = {'problem': '%s: %s' % (answers[side].get('step'), answers[side].get('cause'))}
        if not answers['reference'].get('reused'):  # kept even when it failed: the next evaluations reuse the
            # reference's host instead of tracing (and so ending) it again
            self.ref_trace = {k: v for k, v in answers['reference'].items() if k != 'reused'}
        combined = tracepass.combine(answers['candidate'], answers['reference'])
        if combined.get('available'):
            combined['reference_reused'] = bool(answers['reference'].get('reused'))
        return combined

    # ---- the whole ---------------------------------------------------------------------------------------

    def run(self):
        result = {'verdict': 'correct', 'message': '', 'restart_required': False, 'seed': self.seed,
                  'kind': 'torch', 'device': self.device}
        phases = result['phases_s'] = {}
        mark = [time.monotonic()]

        def done(name):  # where an evaluation's wall time goes: hosts started and loaded, verified, timed
            now = time.monotonic()
            phases[name] = round(now - mark[0], 3)
            mark[0] = now
        try:
            self.load()
            done('load')
            result['load_parts_s'] = self.load_parts
            self.verify()
            done('verify')
            if self.options.get('timing', True):
                if self.before_timing is not None:  # the last evaluation's hosts ended, the spares booted
                    phases.update(self.before_timing())
                    mark[0] = time.monotonic()
                timing = self.time_both()
                done('timing')
                result['timing'] = timing
                if self.options.get('trace', True) and self.device.startswith('cuda'):
                    result['trace'] = self.trace_pass()
                    done('trace')
                result['message'] = 'correct: %.2fx (reference %.4g ms, candidate %.4g ms)' % (
                    timing['speedup'], timing['reference']['median_ms'], timing['candidate']['median_ms'])
            else:
                result['message'] = 'correct (verified in %d trials, not timed)' % self.verification['trials']
        except Verdict as v:
            result['verdict'], result['message'] = v.verdict, v.message
            result.update(v.extra)
            self.verification['reason'] = self.verification['reason'] or v.message
        except HostFailure as f:
            result['verdict'], result['message'] = f.verdict, f.message
            self.verification['reason'] = f.message
        except Exception as e:  # noqa: BLE001 - e.g. a host answer of the wrong shape: a verdict, never a lost session
            result['verdict'] = 'error'
            result['message'] = 'kforge-torch-worker: the evaluation failed: %s: %s' % (type(e).__name__, e)
            self.verification['reason'] = result['message']
        finally:
            mark[0] = time.monotonic()
            # The reference host serves the next evaluation of the same reference unless it failed, ended or
            # was traced (judge.py keeps it); a CPU worker's too.
            self.keep_reference = (self.ref is not None and self.ref.alive() and not self.ref_traced
                                   and result['verdict'] not in ('timeout', 'error')
                                   and (self.warm is not None or self.ref_info is not None))
            result['stdout'] = self.cand.out.text() if self.cand else ''
            result['stdout_truncated'] = bool(self.cand and self.cand.out.truncated)
            self.release()
            if self.defer_close is not None:  # the judge ends the hosts after the reply, before the next timing
                # (returns its wait for the last evaluation's close, if this one never reached its timing)
                phases.setdefault('previous_close', round(self.defer_close(self.close), 3))
            else:
                self.close()
                done('close')  # the hosts ended (their CUDA contexts torn down) and the judge's buffers freed
        result['verification'] = self.verification
        if self.build_cache and self.build_cache['extensions']:
            result['build_cache'] = self.build_cache
        result['flags'], result['warnings'] = self.flags, self.warnings
        exchange = ('its own buffers of the judge\'s device memory (CUDA IPC), the rest over a private pipe'
                    if self.exchange is not None else 'bytes over a private pipe')
        if self.exchange_note:
            self.warnings.append(self.exchange_note)
        result['isolation'] = {'candidate': {'process': 'own', 'cwd': 'fresh temporary directory',
                                             'process_group': True, 'exchange': exchange,
                                             'booted_before': bool(self.cand and self.cand.spare),
                                             'forked': bool(self.cand and getattr(self.cand, 'forked', False))},
                               'reference': {'process': 'own', 'booted_before': bool(self.ref and self.ref.spare),
                                             'forked': bool(self.ref and getattr(self.ref, 'forked', False)),
                                             'reused': self.warm is not None,
                                             'evaluations_before': self.warm.evaluations if self.warm else 0}}
        result['reference_seed'] = self.reference_seed
        return result
