"""A host process: runs one reference or candidate module for the judge (python3 -m kforge_torchworker.host).

The judge starts it with a private pipe pair, a fresh temporary directory as cwd and its own process group. What
the module does here (monkey-patching torch, changing global flags, reseeding) stays in this process. The host
keeps its own references to the clock, events and synchronisation taken before the module is imported, so
patching torch.cuda.Event or time.perf_counter in the module does not change what the host measures; the
timing is still measured inside the candidate's process (timing.external false, docs/torch-worker.md)."""

import argparse
import ctypes
import importlib.util
import os
import sys
import time
import traceback

import torch

from . import wire

_perf = time.perf_counter
_CUDA = torch.cuda.is_available()
if _CUDA:
    _EventBase = torch._C._CudaEventBase
    _record, _elapsed, _ev_sync = _EventBase.record, _EventBase.elapsed_time, _EventBase.synchronize
    _ev_wait = _EventBase.wait
    _device_sync = torch._C._cuda_synchronize  # cudaDeviceSynchronize: every stream of the device


class Failure(Exception):
    def __init__(self, step, cause):
        super().__init__(cause)
        self.step, self.cause = step, cause


def describe(exc, path, whole=False):
    text = str(exc).strip()
    from .buildcache import build_error
    built = build_error(text)  # a load_inline build: the compiler's error lines, not ninja's command line
    if built:
        text = built
    text = ' '.join(text.split()) if whole or built else (text.splitlines()[0] if text else '')
    text = '%s: %s' % (type(exc).__name__, text)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
    if frames:
        text += ' (at %s line %d)' % (os.path.basename(path), frames[-1].lineno)
    return text


def to_cpu(tensors):
    """The tensors on the CPU. Device tensors of one dtype and shape (a timed batch's kept outputs) cross in one
    copy, stacked, and come back as views of it: one synchronisation instead of one per tensor."""
    on_device = [t for t in tensors if t.device.type != 'cpu']
    if len(on_device) > 1 and len(on_device) == len(tensors) and all(
            t.dtype == tensors[0].dtype and t.shape == tensors[0].shape and t.device == tensors[0].device
            for t in tensors):
        return list(torch.stack(tensors).to('cpu').unbind(0))
    return [t.to('cpu') for t in tensors]


def to_list(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


class KernelModule:
    """A KForge .cu candidate: compiled with nvcc here, kf_entry called through ctypes on the forward
    arguments followed by the module's parameters and buffers (named as in the module)."""

    class Tensor(ctypes.Structure):
        _fields_ = [('data', ctypes.c_void_p), ('dtype', ctypes.c_int), ('ndim', ctypes.c_int32),
                    ('shape', ctypes.c_int64 * 8), ('strides', ctypes.c_int64 * 8), ('numel', ctypes.c_int64),
                    ('name', ctypes.c_char_p)]

    class Param(ctypes.Structure):
        _fields_ = [('name', ctypes.c_char_p), ('value', ctypes.c_double)]

    class Params(ctypes.Structure):
        _fields_ = [('items', ctypes.c_void_p), ('count', ctypes.c_int32)]

    KF = {torch.float32: 0, torch.float16: 1, torch.bfloat16: 2, torch.float64: 3, torch.int32: 4,
          torch.int64: 5, torch.uint8: 6}

    def __init__(self, path, setup, device):
        if device.type != 'cuda':
            raise Failure('compile', 'a .cu candidate needs a GPU: this worker evaluates on %s (torch.cuda.'
                                     'is_available() is %s)' % (device, _CUDA))
        if path.endswith('.so'):
            so = path  # compiled by KForge's compiler already
        else:
            so = self.compile(path, setup, device)
        try:
            lib = ctypes.CDLL(so, mode=os.RTLD_NOW | os.RTLD_LOCAL)
            version = ctypes.c_int.in_dll(lib, 'kf_abi_version').value
            self.entry = lib.kf_entry
        except (OSError, ValueError, AttributeError) as e:
            raise Failure('load', 'the compiled library has no kf_abi_version or kf_entry: %s' % e) from None
        if version != 1:
            raise Failure('load', 'kf_abi_version is %d, this worker has 1' % version)
        self.entry.restype = ctypes.c_int
        self.device = device
        self.outputs = setup['outputs']
        self.extra = []  # (name, tensor): parameters then buffers
        self.params = setup.get('params', {})
        self.arg_names = setup.get('arg_names', [])

    @staticmethod
    def compile(path, setup, device):
        import subprocess
        major, minor = torch.cuda.get_device_capability(device)
        nvcc = setup.get('nvcc') or 'nvcc'
        so = os.path.abspath('candidate.so')
        cmd = [nvcc, '-O3', '-lineinfo', '-arch=sm_%d%d' % (major, minor), '-shared', '-Xcompiler', '-fPIC',
               '-I' + setup.get('abi_include', ''), path, '-o', so] + list(setup.get('nvcc_flags', []))
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise Failure('compile', 'nvcc could not run: %s' % e) from None
        if done.returncode != 0:
            raise Failure('compile', 'nvcc exit status %d: %s' % (done.returncode, done.stderr.strip()[-2000:]))
        return so

    def load_state(self, names, tensors, order):
        by_name = dict(zip(names, tensors))
        self.extra = [(n, by_name[n].to(self.device)) for n in order if n in by_name]

    def describe(self, name, t):
        c = self.Tensor()
        c.data, c.dtype, c.ndim = t.data_ptr(), self.KF[t.dtype], t.dim()
        for i, d in enumerate(t.shape):
            c.shape[i], c.strides[i] = d, t.stride(i)
        c.numel, c.name = t.numel(), name.encode()
        return c

    def bind(self, *args):
        """Everything of one call but the kernel: outputs allocated and poisoned, the argument structs built.
        The host does this before the L2 flush and the start event, as kforge-worker poisons outputs before
        its window: a candidate is timed on its own launches, not on the wrapper's 0xFF fill of its outputs."""
        ins, params = [], dict(self.params)
        for i, a in enumerate(args):
            name = self.arg_names[i] if i < len(self.arg_names) else 'arg%d' % i
            if isinstance(a, torch.Tensor):
                ins.append((name, a.contiguous()))
            elif isinstance(a, (int, float)):
                params[name] = float(a)
        ins += self.extra
        outs = []
        for o in self.outputs:
            t = torch.empty(o['shape'], dtype=getattr(torch, o['torch_dtype']), device=self.device)
            t.reshape(-1).view(torch.uint8).fill_(0xFF)  # poison: NaN for floats, -1 / 255 for integers
            outs.append((o['name'], t))
        cin = (self.Tensor * max(1, len(ins)))(*[self.describe(n, t) for n, t in ins])
        cout = (self.Tensor * max(1, len(outs)))(*[self.describe(n, t) for n, t in outs])
        keys = [k.encode() for k in params]
        items = (self.Param * max(1, len(keys)))(*[self.Param(k, float(v)) for k, v in zip(keys, params.values())])
        p = self.Params(ctypes.cast(items, ctypes.c_void_p), len(keys))
        stream = ctypes.c_void_p(torch.cuda.current_stream(self.device).cuda_stream)
        keep = (ins, keys, items)  # the tensors and strings the structs point at, alive while launch is

        def launch():
            assert keep
            status = self.entry(cin, len(ins), cout, len(outs), ctypes.byref(p), stream)
            if status != 0:
                raise RuntimeError('kf_entry returned %d' % status)
            return tuple(t for _, t in outs) if len(outs) != 1 else outs[0][1]
        return launch

    def __call__(self, *args):
        return self.bind(*args)()


class Host:
    def __init__(self, role, device, fd_in, fd_out):
        self.role, self.fd_out = role, fd_out
        self.reader = wire.Reader(fd_in)
        self.device = torch.device(device)
        self.model = None
        self.path = ''
        self.sets = []
        self.buffers = {}  # id -> gpuipc.Mapping: the judge's buffers lent to this host (CUDA workers)
        self.go = self.done = None  # the judge's interprocess events around a timed batch (external timing)
        self.held = None  # (outputs, keep_out) of the last timed batch's kept calls until the judge asks ('kept')
        self.flush = None
        self.ready_at = None  # time.monotonic() (system-wide) once this host could serve: the judge's boot wait
        if self.device.type == 'cuda':
            torch.cuda.set_device(self.device)
            props = torch.cuda.get_device_properties(self.device)
            l2 = getattr(props, 'L2_cache_size', 0) or (64 << 20)
            self.flush = torch.empty(2 * l2 // 4, dtype=torch.float32, device=self.device)
            self.events = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
            self.stream = torch.cuda.current_stream(self.device)

    def loaded(self, answer, started):
        """A load answer with when this host became ready and how long the load itself took."""
        answer['ready_at'], answer['load_s'] = self.ready_at, time.monotonic() - started
        return answer

    def reply(self, header, tensors=()):
        # What the module printed so far reaches the judge's capture before the answer does (Capture.text).
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - a module that replaced or closed them: nothing to flush
                pass
        wire.send(self.fd_out, header, tensors)

    def import_module(self, path):
        self.path = path
        spec = importlib.util.spec_from_file_location('kforge_%s' % self.role, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException as e:  # noqa: BLE001 - the module's own failure, reported as a verdict
            raise Failure('import', describe(e, path)) from None
        return module

    def call(self, step, fn, *args):
        try:
            return fn(*args)
        except Failure:
            raise
        except BaseException as e:  # noqa: BLE001
            raise Failure(step, describe(e, self.path)) from None

    def op_load(self, header, tensors):
        started = time.monotonic()
        path = header['path']
        if path.endswith(('.cu', '.so')):
            self.path = path
            self.model = KernelModule(path, header, self.device)
            self.model.load_state(header['state_keys'], tensors, header['param_names'] + header['buffer_names'])
            return self.loaded({}, started), []
        builds = []
        if header.get('build_cache'):
            from . import buildcache
            buildcache.install(header['build_cache'], builds)
        module = self.import_module(path)
        cls_name = 'Model' if self.role == 'reference' else 'ModelNew'
        cls = getattr(module, cls_name, None)
        if cls is None:
            raise Failure('lookup', '%s defines no class %s' % (os.path.basename(path), cls_name))
        if self.role == 'reference':
            if hasattr(module, 'get_init_inputs'):
                init_args = self.call('get_init_inputs', lambda: list(module.get_init_inputs()))
            else:
                init_args = header.get('init_args') or []
            torch.manual_seed(header['seed'])
            model = self.call('construct', cls, *init_args)
            model = self.call('to_device', lambda: model.to(self.device).eval())
            state = model.state_dict()
            self.model = model
            return (self.loaded({'init_args': init_args, 'state_keys': list(state),
                                 'param_names': [n for n, _ in model.named_parameters()],
                                 'buffer_names': [n for n, _ in model.named_buffers()], 'builds': builds}, started),
                    list(state.values()))
        torch.manual_seed(header['seed'])
        model = self.call('construct', cls, *header['init_args'])
        state = dict(zip(header['state_keys'], tensors))
        try:
            result = model.load_state_dict(state, strict=True)
        except BaseException as e:  # noqa: BLE001
            raise Failure('load_state_dict', describe(e, path, whole=True)) from None
        del result
        self.model = self.call('to_device', lambda: model.to(self.device).eval())
        return self.loaded({'builds': builds}, started), []

    def materialise(self, arg_header, tensors):
        args = []
        for a in arg_header:
            if 'buf' in a:
                args.append(self.buffer(a['buf']))
            else:
                args.append(tensors[a['tensor']].to(self.device) if 'tensor' in a else a['value'])
        return args

    def buffer(self, key):
        if str(key) not in self.buffers:
            raise Failure('exchange', 'the judge named buffer %r, which it did not lend' % (key,))
        return self.buffers[str(key)].tensor

    def op_map(self, header, tensors):
        """Maps the judge's buffers (CUDA IPC handles) lent to this host; buffers no longer named are closed."""
        from . import gpuipc
        from .spec import DTYPES
        for key, entry in header.get('buffers', {}).items():
            if key not in self.buffers:
                try:
                    self.buffers[key] = gpuipc.Mapping(entry, DTYPES, self.device)
                except (gpuipc.IpcError, RuntimeError, ValueError, KeyError) as e:
                    raise Failure('exchange', 'mapping the judge\'s buffer %s: %s' % (key, e)) from None
        for key in [k for k in self.buffers if k not in header.get('buffers', {})]:
            del self.buffers[key]
        return {}, []

    def into_buffers(self, outs, ids):
        """The outputs as the judge reads them: a tensor that fits its lent buffer (same dtype and shape) is
        copied there ({"buf": id}); any other tensor crosses the pipe, as on a CPU worker."""
        kinds, tensors = [], []
        for i, o in enumerate(outs):
            if i < len(ids) and isinstance(o, torch.Tensor) and str(ids[i]) in self.buffers:
                target = self.buffers[str(ids[i])].tensor
                if o.dtype == target.dtype and tuple(o.shape) == tuple(target.shape) and o.device == target.device:
                    target.copy_(o)
                    kinds.append({'buf': ids[i]})
                    continue
            k, t = self.outputs_for_judge([o])
            if t:
                kinds.append({'tensor': len(tensors)})
                tensors += t
            else:
                kinds.append(k[0])
        self.sync()
        return kinds, tensors

    def forward(self, args):
        with torch.no_grad():
            return to_list(self.call('forward', self.model, *args))

    def outputs_for_judge(self, outs):
        kinds, tensors = [], []
        for o in outs:
            if isinstance(o, torch.Tensor) and o.dtype in wire.NAMES:
                kinds.append({'tensor': len(tensors)})
                tensors.append(o)
            else:
                kinds.append({'type': type(o).__name__ if not isinstance(o, torch.Tensor) else str(o.dtype)})
        return kinds, tensors

    def op_run(self, header, tensors):
        args = self.materialise(header['args'], tensors)
        self.sync()
        outs = self.forward(args)
        self.sync()
        if 'out' in header:  # a CUDA worker: outputs into the judge's buffers, inputs read by the judge there
            kinds, out_tensors = self.into_buffers(outs, header['out'])
            return {'outputs': kinds}, out_tensors
        kinds, out_tensors = self.outputs_for_judge(outs)
        after = [a for a in args if isinstance(a, torch.Tensor)]
        return {'outputs': kinds}, out_tensors + after

    def op_stage(self, header, tensors):
        self.sets = [self.materialise(s, tensors) for s in header['sets']]
        return {}, []

    def op_sets(self, header, tensors):
        """The staged timing inputs as they are now: the judge compares them with what it sent."""
        return {}, [a for s in self.sets for a in s if isinstance(a, torch.Tensor)]

    def sync(self):
        if self.device.type == 'cuda':
            _device_sync()

    def timed(self, fn):
        """fn() alone inside the window: what a call needs first (a .cu candidate's outputs, bound by
        KernelModule.bind) is made by the caller before."""
        if self.device.type != 'cuda':
            t0 = _perf()
            out = fn()
            return (_perf() - t0) * 1000.0, out
        self.flush.sum()  # a read sweep of 2 x L2, outside the window
        _device_sync()
        _record(self.events[0], self.stream)
        out = fn()
        _device_sync()  # device-wide: work the call left on other streams is inside the window
        _record(self.events[1], self.stream)
        _ev_sync(self.events[1])
        return _elapsed(self.events[0], self.events[1]), out

    def op_events(self, header, tensors):
        """Opens the judge's two interprocess events (go, done) for external timing."""
        import base64
        try:
            self.go = torch.cuda.Event.from_ipc_handle(self.device, base64.b64decode(header['go']))
            self.done = torch.cuda.Event.from_ipc_handle(self.device, base64.b64decode(header['done']))
        except (RuntimeError, KeyError, ValueError, TypeError) as e:
            raise Failure('exchange', 'opening the judge\'s events: %s' % e) from None
        return {}, []

    def op_time(self, header, tensors):
        args = self.sets[header['set']]
        keep = list(header.get('keep', []))
        keep_out = header.get('keep_out')  # per kept call, the ids of its output buffers (CUDA workers)
        external = header.get('external') if self.go is not None else None  # 'calls' | 'baseline' | None
        times, held = [], []
        with torch.no_grad():
            if external:  # the batch starts on the device after the judge's go (its own clock starts before)
                _ev_wait(self.go, self.stream)
            for i in range(header['calls']):
                if isinstance(self.model, KernelModule):
                    bound = self.call('timing', self.model.bind, *args)
                    ms, out = self.timed(lambda: self.call('timing', bound))
                else:
                    ms, out = self.timed(lambda: self.call('timing', self.model, *args))
                times.append(ms)
                if i in keep:
                    held.append(out)  # read after the batch: nothing but calls between go and done
                del out
            if external == 'calls':
                _record(self.done, self.stream)
            baseline = []
            for _ in range(header.get('baseline_calls', 0)):
                if isinstance(self.model, KernelModule):  # the frame has what a call has around its window
                    self.call('timing', self.model.bind, *args)
                baseline.append(self.timed(lambda: None)[0])
            if external == 'baseline':
                _record(self.done, self.stream)
            if header.get('defer_kept'):
                # The judge's window ends when this reply reaches it: the kept outputs' copies and their bytes
                # on the pipe come with the next request ('kept'), outside it, as the frame has none of them.
                self.held = (held, keep_out)
                return {'times_ms': times, 'baseline_ms': baseline}, []
            return self.kept_answer({'times_ms': times, 'baseline_ms': baseline}, held, keep_out)

    def op_kept(self, header, tensors):
        held, keep_out = self.held or ([], None)
        self.held = None
        with torch.no_grad():
            return self.kept_answer({}, held, keep_out)

    def kept_answer(self, answer, held, keep_out):
        """The kept calls' outputs for the judge: into its lent buffers (keep_out, a CUDA worker) or copied."""
        kept, kinds_kept = [], []
        for j, out in enumerate(held):
            if keep_out is not None:
                kinds, ts = self.into_buffers(to_list(out), keep_out[j])
                kinds_kept.append([dict(k, tensor=k['tensor'] + len(kept)) if 'tensor' in k else k for k in kinds])
                kept += [t.to('cpu') for t in ts]
            else:
                kinds, ts = self.outputs_for_judge(to_list(out))
                kept += ts
        if keep_out is not None:
            answer['kept'] = kinds_kept
            return answer, kept
        return answer, to_cpu(kept)

    def op_trace(self, header, tensors):
        """The trace pass (tracepass.py): the injection library started in this process, `runs` calls on
        timing set 0, each after an L2 flush and bracketed on CUPTI's clock, then the records summarised."""
        from . import tracepass
        if self.device.type != 'cuda':
            return {'problem': 'no CUDA device in this host'}, []
        try:
            lib = ctypes.CDLL(header['library'], mode=os.RTLD_NOW | os.RTLD_LOCAL)
            lib.kforge_inject_timestamp.restype = ctypes.c_ulonglong
            lib.kforge_inject_write.argtypes = [ctypes.c_char_p]
        except (OSError, AttributeError, KeyError) as e:
            return {'problem': 'the injection library could not be loaded: %s' % e}, []
        lib.InitializeInjection()
        stamp = lib.kforge_inject_timestamp
        args = self.sets[header.get('set', 0)]
        windows = []
        with torch.no_grad():
            for _ in range(max(1, int(header.get('runs', 10)))):
                call = (self.model.bind(*args) if isinstance(self.model, KernelModule)
                        else (lambda: self.model(*args)))
                self.flush.sum()
                _device_sync()
                t0 = stamp()
                self.call('trace', call)
                _device_sync()
                windows.append((t0, stamp()))
        path = os.path.abspath('kforge-trace.jsonl')
        rc = lib.kforge_inject_write(path.encode())
        if rc == 1:
            return {'problem': 'CUPTI tracing did not start in the %s\'s process (another libcupti, or CUPTI '
                               'busy: see its stderr)' % self.role}, []
        if rc != 0:
            return {'problem': 'the trace records could not be written to %s' % path}, []
        side, counts = tracepass.summarize(tracepass.read_lines(path), windows)
        return {'side': side, 'counts': counts}, []

    def serve(self):
        ops = {'load': self.op_load, 'run': self.op_run, 'stage': self.op_stage, 'time': self.op_time,
               'sets': self.op_sets, 'map': self.op_map, 'events': self.op_events, 'trace': self.op_trace,
               'kept': self.op_kept, 'ping': lambda header, tensors: ({'ready_at': self.ready_at}, [])}
        while True:
            try:
                header, tensors = self.reader.receive()
            except wire.WireError:
                return 0
            op = header.get('op')
            if op == 'shutdown':
                return 0
            try:
                out, out_tensors = ops[op](header, tensors)
                self.reply(dict(out, ok=True), out_tensors)
            except Failure as f:
                self.reply({'ok': False, 'step': f.step, 'cause': f.cause})
            except BaseException as e:  # noqa: BLE001 - the host's own failure, still an answer
                self.reply({'ok': False, 'step': op, 'cause': describe(e, self.path)})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--role', choices=('reference', 'candidate'), required=True)
    parser.add_argument('--device', default='cpu')
    parser.add_argument('--fd-in', type=int, required=True)
    parser.add_argument('--fd-out', type=int, required=True)
    args = parser.parse_args()
    sys.stdin = open(os.devnull)
    host = Host(args.role, args.device, args.fd_in, args.fd_out)
    if args.role == 'candidate':
        try:  # what a ModelNew's load imports (the build cache's hook, load_inline): 0.3 s, paid while booting
            import torch.utils.cpp_extension  # noqa: F401
        except Exception:  # noqa: BLE001 - the load reports it, if a candidate needs it
            pass
    host.ready_at = time.monotonic()
    return host.serve()


if __name__ == '__main__':
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # No interpreter teardown: unloading torch took 0.6-1.0 s of every host's end (which the next evaluation
    # waits for), and nothing of a host's state needs finalising; a forked host ends the same way (zygote.py).
    os._exit(code if isinstance(code, int) else 0)
