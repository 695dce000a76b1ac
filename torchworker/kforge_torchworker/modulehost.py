"""The module host: runs one PyTorch module (a problem's `Model` or a candidate's `ModelNew`) for kforge-worker, the
judge, over the candidate-host protocol the native host speaks (docs/worker-protocol.md, "Candidate host";
core/runtime/host/hostprotocol.h). It is started through the judge's sandbox (`kforge-module-host`, python3 -I)
with the channel at fd 3, and does only what a host does: import the module, build it, take the judge's weights,
map the buffers the judge lends, run the calls it is told to run. It measures nothing and compares nothing: the
timing comes from the judge's events around a batch, the verdict from the judge's comparison of the buffers.

Requests (one JSON line each, answered by one line that echoes the request's "nonce"):
  boot                      the CUDA context and the host's stream (a spare host's first request; init does it too)
  init   slot, library (the .py), class, init_args (null: the module's get_init_inputs()), seed, mode,
         profiler (libkforge_moduleprofile.so or empty), extensions (a folder in the host's directory where
         load_inline builds, holding copies of the module's earlier builds), restrictions, guard (the judge's libkforge_hostguard.so: Landlock and seccomp, applied before the
         module is imported)
         -> init_args (what the module was built with), state (name, dtype, shape, kind of every state-dict
            entry), forward (the argument names)
  map    exchange ("ipc": CUDA IPC handles in hex; "fd": memfds sent with this line, SCM_RIGHTS, for a host
         without a GPU), buffers [{id, handle, bytes}], events [{id, handle}] (ipc only), signature {args:
         [{dtype, shape} | {value}], outputs: [{dtype, shape}]}
  state  direction "export" (write the module's state into the lent buffers) or "load" (take it from them;
         the names, shapes and dtypes must be the module's own), entries [{name, ref: [buffer, offset]}]
  batch  go, done (event ids), calls [{inputs: [[buffer, offset]...], outputs: [...]}]: wait(go), the calls
         on the host's stream, record(done); answered once enqueued
  finish the device synchronised; rc per call since the last finish (0 ok), errors [{call, step, message}],
         cuda_error
  profile kind "trace" or "metrics", call, and the pass's fields: the judge's CUPTI pass on that call, run by
         libkforge_moduleprofile.so (init's "profiler", loaded before the restrictions); the source-level pass
         is refused (a module has no machine code of its own to map)
  float64 call, out, outputs: the reference's module in float64 on one call's inputs (precision.py)
  exit

A module's failure is a refusal naming the step and the cause ("cand.py: the candidate failed at step
construct: TypeError: ..."), with "code" load_failed (import, class, init inputs, construct, move) or
state_mismatch; a call's failure is its rc and an entry in finish's errors."""

import ctypes
import importlib.util
import inspect
import json
import mmap
import os
import socket
import sys
import time
import traceback

import torch

CHANNEL_FD = 3
EXIT_CHANNEL_GONE = 5  # hostprotocol.h kExitChannelGone
ABI = 1
MAX_FDS = 256

DTYPES = {'f32': torch.float32, 'f16': torch.float16, 'bf16': torch.bfloat16, 'f64': torch.float64,
          'i32': torch.int32, 'i64': torch.int64, 'i16': torch.int16, 'i8': torch.int8, 'u8': torch.uint8,
          'bool': torch.bool}
NAMES = {v: k for k, v in DTYPES.items()}

# Taken before any module is imported: a module that rebinds these in torch changes nothing here.
_synchronize = torch.cuda.synchronize
_no_grad = torch.no_grad


class Refusal(Exception):
    def __init__(self, code, message, step=None):
        super().__init__(message)
        self.code, self.message, self.step = code, message, step


def describe(exc, path):
    """One line: the exception's type and first line (a load_inline build: the compiler's error lines), and
    the module's own line where it was raised."""
    text = str(exc).strip()
    try:
        from .buildcache import build_error
        built = build_error(text)
    except ImportError:
        built = ''
    text = built or (text.splitlines()[0] if text else '')
    text = '%s: %s' % (type(exc).__name__, text)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
    if frames:
        text += ' (at %s line %d)' % (os.path.basename(path), frames[-1].lineno)
    return text


def json_value(v):
    """v as JSON (numbers, strings, bools, None and lists of them), or raises TypeError naming what it is."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [json_value(x) for x in v]
    raise TypeError('a %s (the judge passes numbers, strings, booleans and lists of them)' % type(v).__name__)


class Channel:
    """The judge's channel at fd 3 (a socketpair): lines in, lines out, and descriptors that come with a line
    (SCM_RIGHTS), queued in arrival order."""

    def __init__(self, fd):
        self.sock = socket.socket(fileno=fd)
        self.buffer = b''
        self.fds = []

    def read_line(self):
        while b'\n' not in self.buffer:
            try:
                data, ancillary, _, _ = self.sock.recvmsg(1 << 16, socket.CMSG_SPACE(MAX_FDS * 4),
                                                          socket.MSG_CMSG_CLOEXEC)
            except InterruptedError:
                continue
            except OSError:
                return None
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    usable = len(payload) - len(payload) % 4
                    self.fds.extend(int.from_bytes(payload[i:i + 4], sys.byteorder) for i in range(0, usable, 4))
            if not data:
                return None
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b'\n')
        return line

    def take_fds(self, n):
        if len(self.fds) < n:
            raise Refusal('bad_request', 'the map names %d buffers, %d descriptors came with it' % (n, len(self.fds)))
        taken, self.fds = self.fds[:n], self.fds[n:]
        return taken

    def write_line(self, obj):
        try:
            self.sock.sendall(json.dumps(obj).encode() + b'\n')
            return True
        except OSError:
            return False


NOT_TRIED = object()  # no profiler library tried yet (None is init's "none given")


class Host:
    def __init__(self, device):
        self.device_index = device
        self.device = torch.device('cpu')
        self.has_device = False
        self.booted = False
        self.boot_ms = 0.0
        self.stream = None
        self.model = None
        self.path = ''
        self.slot = 'candidate'
        self.state = {}  # name -> the module's state tensor
        self.buffers = {}  # id -> uint8 tensor over the lent bytes
        self.keep = []  # mmaps and IPC mappings behind self.buffers
        self.events = {}
        self.signature = None
        self.rc, self.errors = [], []
        self.profiler, self.profiler_error = None, ''
        self.profiler_path = NOT_TRIED  # the library load_profiler last tried (boot's or init's)

    # -- ops ------------------------------------------------------------------------------------------------
    def boot(self, req=None):
        if self.booted:
            raise Refusal('bad_request', 'boot twice')
        # A spare loads the judge's profiler library (CUPTI and its host library: 0.1-0.2 s) while it waits, so a
        # module's init does not; init loads it again only when it names another one.
        t0 = time.perf_counter()
        if (req or {}).get('profiler'):
            self.load_profiler(req['profiler'])
            self.profiler_path = req['profiler']
        profiler_ms = (time.perf_counter() - t0) * 1e3
        t0 = time.perf_counter()
        if self.device_index >= 0 and torch.cuda.is_available():
            try:
                torch.cuda.set_device(self.device_index)
                self.device = torch.device('cuda', self.device_index)
                torch.empty(1, device=self.device)
                self.stream = torch.cuda.Stream(self.device)
                self.has_device = True
            except RuntimeError:
                self.device, self.stream = torch.device('cpu'), None
        self.booted = True
        self.boot_ms = (time.perf_counter() - t0) * 1e3
        return {'ok': True, 'device': self.has_device, 'context_ms': self.boot_ms, 'profiler_ms': profiler_ms,
                'profiler': self.profiler is not None, 'profiler_error': self.profiler_error}

    def init(self, req):
        if self.model is not None:
            raise Refusal('bad_request', 'init twice')
        if not self.booted:
            self.boot()
        self.slot = req.get('slot', 'candidate')
        t0 = time.perf_counter()
        if req.get('profiler') != self.profiler_path:  # before the restrictions: it and CUPTI load from the worker's tree
            self.load_profiler(req.get('profiler'))
            self.profiler_path = req.get('profiler')
        protections = self.restrict(req.get('guard'), req.get('restrictions', {}))
        restrict_ms = (time.perf_counter() - t0) * 1e3
        t0 = time.perf_counter()
        self.path = os.path.abspath(req['library'])
        cls_name = req.get('class') or ('Model' if self.slot == 'reference' else 'ModelNew')
        builds = []
        if req.get('extensions'):
            # load_inline builds into the judge's folder for this module: its earlier builds (the judge lent
            # copies of them) are imported instead of compiled, new ones are kept by the judge after init.
            from .buildcache import install
            install(req['extensions'], builds)
        module = self.step('import', self.import_module)
        cls = getattr(module, cls_name, None)
        if not isinstance(cls, type) or not issubclass(cls, torch.nn.Module):
            found = sorted(n for n, v in vars(module).items()
                           if isinstance(v, type) and issubclass(v, torch.nn.Module) and v.__module__ == module.__name__)
            self.fail('class', 'no torch.nn.Module class %s in %s (it defines: %s)'
                      % (cls_name, os.path.basename(self.path), ', '.join(found) or 'none'))
        args = req.get('init_args')
        if args is None:
            getter = getattr(module, 'get_init_inputs', None)
            args = self.step('init inputs', getter) if callable(getter) else []
        try:
            args = json_value(list(args))
        except TypeError as e:
            self.fail('init inputs', 'get_init_inputs() returned %s' % e)
        seed = int(req.get('seed', 0))

        def construct():
            torch.manual_seed(seed)
            return cls(*args)
        self.model = self.step('construct', construct)
        self.step('move', lambda: self.model.to(self.device))
        train = req.get('mode') == 'train'
        if train:
            random = sorted('%s (p=%g)' % (n or type(m).__name__, m.p) for n, m in self.model.named_modules()
                            if isinstance(m, torch.nn.modules.dropout._DropoutNd) and m.p > 0)
            if random:
                self.fail('mode', 'the task asks for training mode, where dropout is random and no two runs agree: '
                          '%s; judge it in eval mode (the default), where dropout passes its input through'
                          % ', '.join(random[:4]) + (' and %d more' % (len(random) - 4) if len(random) > 4 else ''))
        self.model.train(train)
        self.state = dict(self.model.state_dict(keep_vars=True))
        params = {id(p) for p in self.model.parameters()}
        state = [{'name': n, 'dtype': NAMES.get(t.dtype, str(t.dtype)), 'shape': list(t.shape),
                  'kind': 'parameter' if id(t) in params else 'buffer'} for n, t in self.state.items()]
        try:
            forward = [p for p in inspect.signature(self.model.forward).parameters]
        except (TypeError, ValueError):
            forward = []
        return {'ok': True, 'abi': ABI, 'device': self.has_device, 'protections': protections,
                'init_args': args, 'state': state, 'forward': forward, 'builds': builds,
                'init_ms': {'context': self.boot_ms, 'restrictions': restrict_ms,
                            'library': (time.perf_counter() - t0) * 1e3}}

    def map(self, req, channel):
        self.require_init()
        self.unmap()
        exchange = req.get('exchange', 'ipc')
        entries = req.get('buffers', [])
        if exchange == 'fd':
            fds = channel.take_fds(len(entries))
            for entry, fd in zip(entries, fds):
                size = int(entry['bytes'])
                try:
                    mm = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE) if size else None
                finally:
                    os.close(fd)
                self.keep.append(mm)
                self.buffers[int(entry['id'])] = (torch.frombuffer(mm, dtype=torch.uint8) if size
                                                  else torch.empty(0, dtype=torch.uint8))
        elif exchange == 'ipc':
            if not self.has_device:
                raise Refusal('no_device', 'the host has no CUDA device: map with exchange "fd"')
            from . import gpuipc
            for entry in entries:
                size = int(entry['bytes'])
                mapping = gpuipc.Mapping({'dtype': 'u8', 'shape': [size], 'nbytes': size,
                                          'handle_hex': entry.get('handle', '')}, {'u8': torch.uint8}, self.device)
                self.keep.append(mapping)
                self.buffers[int(entry['id'])] = mapping.tensor
            for entry in req.get('events', []):
                self.events[int(entry['id'])] = torch.cuda.Event.from_ipc_handle(self.device,
                                                                                  bytes.fromhex(entry['handle']))
        else:
            raise Refusal('bad_request', 'unknown exchange %r' % exchange)
        if not entries and req.get('signature') is None:
            return {'ok': True, 'buffers': 0, 'events': 0}  # the judge closing its mappings
        self.signature = self.read_signature(req.get('signature'))
        return {'ok': True, 'buffers': len(self.buffers), 'events': len(self.events)}

    def state_op(self, req):
        self.require_init()
        direction = req.get('direction')
        entries = req.get('entries', [])
        names = [e['name'] for e in entries]
        if direction == 'load':
            missing = [n for n in self.state if n not in names]
            unexpected = [n for n in names if n not in self.state]
            if missing or unexpected:
                parts = []
                if missing:
                    parts.append('missing key(s) in the judge\'s weights: ' + ', '.join('"%s"' % n for n in missing))
                if unexpected:
                    parts.append('the reference has key(s) this module lacks: '
                                 + ', '.join('"%s"' % n for n in unexpected))
                self.fail('load_state_dict', '; '.join(parts), code='state_mismatch')
        elif direction != 'export':
            raise Refusal('bad_request', 'state direction must be "export" or "load"')
        with _no_grad():
            for e in entries:
                mine = self.state.get(e['name'])
                if mine is None:
                    raise Refusal('bad_request', 'no state entry "%s"' % e['name'])
                dtype = DTYPES.get(e.get('dtype'), mine.dtype)
                shape = list(e.get('shape', list(mine.shape)))
                if direction == 'load' and (dtype != mine.dtype or shape != list(mine.shape)):
                    self.fail('load_state_dict', '"%s" is %s %s here, the reference\'s is %s %s'
                              % (e['name'], NAMES.get(mine.dtype, mine.dtype), list(mine.shape),
                                 NAMES.get(dtype, dtype), shape), code='state_mismatch')
                view = self.view(e['ref'], mine.dtype, list(mine.shape))
                if direction == 'export':
                    view.copy_(mine.detach())
                else:
                    mine.data.copy_(view)
        if self.has_device:
            _synchronize(self.device)
        return {'ok': True, 'entries': len(entries)}

    def batch(self, req):
        self.require_init()
        if self.signature is None:
            raise Refusal('bad_request', 'no mapping (op map)')
        calls = [self.bind(c) for c in req.get('calls', [])]
        if self.has_device:
            go, done = self.event(req.get('go')), self.event(req.get('done'))
            self.stream.wait_event(go)
            try:
                with torch.cuda.stream(self.stream):
                    self.run(calls)
            finally:
                done.record(self.stream)  # whatever the calls did: the judge's stream never waits for nothing
        else:
            self.run(calls)
        return {'ok': True, 'enqueued': len(calls)}

    def profile(self, req):
        """The judge's trace or metrics pass on one call (libkforge_moduleprofile.so: the native host's CUPTI code,
        which flushes the L2, bounds the call's window with its own kernels and reads CUPTI); this host only runs
        the module's call on its stream when the library asks."""
        self.require_init()
        if self.signature is None:
            raise Refusal('bad_request', 'no mapping (op map)')
        if not self.has_device:
            raise Refusal('no_device', 'the host has no CUDA device')
        if self.profiler is None:
            raise Refusal('no_profiler', 'this worker has no CUPTI profiler for module hosts'
                          + (' (%s)' % self.profiler_error if self.profiler_error else ''))
        kind = req.get('kind')
        if kind not in ('trace', 'metrics'):
            raise Refusal('unsupported', 'the %s pass maps a kernel library\'s own machine code to its source lines; '
                          'a module\'s kernels come from torch, Triton or its extensions' % kind)
        args, outs = self.bind(req.get('call', {}))
        failures = []

        def one(_context):
            try:
                with torch.cuda.stream(self.stream):
                    self.call_once(args, outs)
                return 0
            except BaseException as e:  # noqa: BLE001 - reported through the library's answer
                failures.append(str(e) if isinstance(e, OutputMismatch) else describe(e, self.path))
                return 1
        callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)(one)
        out = ctypes.create_string_buffer(64 << 20)
        rc = self.profiler.kforge_module_profile(json.dumps(req).encode(), callback, None,
                                                 ctypes.c_void_p(self.stream.cuda_stream), self.device_index,
                                                 1 if self.slot == 'reference' else 0, out, len(out))
        if rc != 0:
            message = json.loads(out.value.decode()).get('message', '') if rc == 1 else 'the pass\'s answer is too long'
            if failures:
                message += ': ' + failures[0]
            raise Refusal('kernel_failed', message)
        body = json.loads(out.value.decode())
        body['ok'] = True
        return body

    def finish(self):
        self.require_init()
        cuda_error = None
        if self.has_device:
            try:
                _synchronize(self.device)
            except RuntimeError as e:
                cuda_error = str(e).splitlines()[0] if str(e) else 'RuntimeError'
        rc, errors = self.rc, self.errors
        self.rc, self.errors = [], []
        return {'ok': True, 'rc': rc, 'errors': errors, 'cuda_error': cuda_error}

    # -- helpers --------------------------------------------------------------------------------------------
    def restrict(self, guard, restrictions):
        if not guard:
            return {'landlock': False, 'seccomp': False,
                    'notes': ['no guard library given: the module host applied no Landlock or seccomp']}
        try:
            lib = ctypes.CDLL(guard)
        except OSError as e:
            raise Refusal('internal', 'the judge\'s guard library cannot be loaded: %s' % e) from None
        lib.kforge_host_restrict.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
        lib.kforge_host_restrict.restype = ctypes.c_int
        out = ctypes.create_string_buffer(1 << 16)
        if lib.kforge_host_restrict(json.dumps(restrictions).encode(), out, len(out)) != 0:
            raise Refusal('internal', 'the guard library failed: ' + out.value.decode(errors='replace'))
        return json.loads(out.value.decode())

    def load_profiler(self, path):
        self.profiler, self.profiler_error = None, ''
        if not path:
            self.profiler_error = 'the judge gave no profiler library'
            return
        try:
            lib = ctypes.CDLL(path)
            entry = lib.kforge_module_profile
        except (OSError, AttributeError) as e:  # not loadable, or not the judge's library
            self.profiler_error = str(e)
            return
        entry.argtypes = [ctypes.c_char_p, ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p), ctypes.c_void_p,
                          ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
        entry.restype = ctypes.c_int
        self.profiler = lib

    def import_module(self):
        spec = importlib.util.spec_from_file_location('kforge_' + self.slot, self.path)
        if spec is None or spec.loader is None:
            raise ImportError('not a Python source file')
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module

    def step(self, name, fn):
        try:
            return fn()
        except Refusal:
            raise
        except BaseException as e:  # SystemExit and KeyboardInterrupt from a module's code are failures too
            self.fail(name, describe(e, self.path))

    def fail(self, step, cause, code='load_failed'):
        raise Refusal(code, '%s: the %s failed at step %s: %s' % (os.path.basename(self.path), self.slot, step, cause),
                      step)

    def require_init(self):
        if self.model is None:
            raise Refusal('bad_request', 'no module loaded (op init)')

    def event(self, ident):
        if ident not in self.events:
            raise Refusal('bad_request', 'unknown event %r' % (ident,))
        return self.events[ident]

    def unmap(self):
        if self.has_device:
            _synchronize(self.device)
        self.buffers, self.events, self.signature = {}, {}, None
        for k in self.keep:
            close = getattr(k, 'close', None)
            if close:
                try:
                    close()
                except BufferError:
                    pass  # a tensor of the module's still views it; it goes with the process
        self.keep = []

    @staticmethod
    def read_signature(sig):
        if not isinstance(sig, dict):
            raise Refusal('bad_request', 'map needs a signature {args, outputs}')

        def tensor(t):
            if t.get('dtype') not in DTYPES or not isinstance(t.get('shape'), list):
                raise Refusal('bad_request', 'a tensor needs a dtype of %s and a shape' % ', '.join(DTYPES))
            return DTYPES[t['dtype']], [int(d) for d in t['shape']]
        args = [('value', a['value']) if 'value' in a else ('tensor',) + tensor(a) for a in sig.get('args', [])]
        outputs = [tensor(o) for o in sig.get('outputs', [])]
        return args, outputs

    def view(self, ref, dtype, shape):
        buffer_id, offset = int(ref[0]), int(ref[1])
        raw = self.buffers.get(buffer_id)
        numel = 1
        for d in shape:
            numel *= d
        size = numel * torch.empty(0, dtype=dtype).element_size()
        if raw is None or offset < 0 or offset + size > raw.numel():
            raise Refusal('bad_request', 'a tensor outside its buffer')
        if size == 0:
            return torch.empty(shape, dtype=dtype, device=raw.device)
        if offset % torch.empty(0, dtype=dtype).element_size():
            raise Refusal('bad_request', 'a tensor at an offset its dtype cannot be aligned to')
        return raw[offset:offset + size].view(dtype).view(shape)

    def bind(self, call):
        args_spec, outputs_spec = self.signature
        inputs, outputs = call.get('inputs', []), call.get('outputs', [])
        tensors = [a for a in args_spec if a[0] == 'tensor']
        if len(inputs) != len(tensors) or len(outputs) != len(outputs_spec):
            raise Refusal('bad_request', 'a call names %d inputs and %d outputs, the signature has %d and %d'
                          % (len(inputs), len(outputs), len(tensors), len(outputs_spec)))
        refs = iter(inputs)
        args = [self.view(next(refs), a[1], a[2]) if a[0] == 'tensor' else a[1] for a in args_spec]
        outs = [self.view(r, d, s) for r, (d, s) in zip(outputs, outputs_spec)]
        return args, outs

    def run(self, calls):
        failed = any(rc != 0 for rc in self.rc)
        for args, outs in calls:
            if failed:
                self.rc.append(2)  # not run: an earlier call of this evaluation failed
                continue
            i = len(self.rc)
            try:
                self.call_once(args, outs)
                self.rc.append(0)
            except BaseException as e:
                failed = True
                self.rc.append(1)
                mismatch = isinstance(e, OutputMismatch)
                self.errors.append({'call': i, 'step': 'output' if mismatch else 'forward',
                                    'message': str(e) if mismatch else describe(e, self.path)})

    def call_once(self, args, outs):
        with _no_grad():
            result = self.model(*args)
            results = list(result) if isinstance(result, (tuple, list)) else [result]
            self.check(results, outs)
            for dst, got in zip(outs, results):
                dst.copy_(got)

    def check(self, results, outs):
        if len(results) != len(outs):
            raise OutputMismatch('forward returned %d outputs, the task declares %d' % (len(results), len(outs)))
        for k, (got, dst) in enumerate(zip(results, outs)):
            if not isinstance(got, torch.Tensor):
                raise OutputMismatch('output %d is a %s, not a tensor' % (k, type(got).__name__))
            if got.dtype != dst.dtype:  # never converted: a lower precision would pass through a copy
                raise OutputMismatch('output %d has dtype %s, the task declares %s'
                                     % (k, NAMES.get(got.dtype, got.dtype), NAMES[dst.dtype]))
            if list(got.shape) != list(dst.shape):
                raise OutputMismatch('output %d has shape %s, the task declares %s'
                                     % (k, list(got.shape), list(dst.shape)))
            if got.device != dst.device:
                raise OutputMismatch('output %d is on %s, the inputs on %s' % (k, got.device, dst.device))


class OutputMismatch(Exception):
    pass


def serve(channel, host):
    while True:
        line = channel.read_line()
        if line is None:
            return EXIT_CHANNEL_GONE
        nonce, leave = None, False
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise Refusal('bad_request', 'a request is a JSON object')
            nonce = req.get('nonce')
            op = req.get('op')
            if op == 'boot':
                reply = host.boot(req)
            elif op == 'init':
                reply = host.init(req)
            elif op == 'map':
                reply = host.map(req, channel)
            elif op == 'state':
                reply = host.state_op(req)
            elif op == 'batch':
                reply = host.batch(req)
            elif op == 'finish':
                reply = host.finish()
            elif op == 'profile':
                reply = host.profile(req)
            elif op == 'float64':  # the judge's precision contract (precision.py)
                from .precision import float64_call
                reply = float64_call(host, req, Refusal)
            elif op == 'exit':
                reply, leave = {'ok': True}, True
            else:
                raise Refusal('bad_request', "unknown op '%s'" % op)
        except Refusal as r:
            reply = {'ok': False, 'code': r.code, 'message': r.message}
            if r.step:
                reply['step'] = r.step
        except (ValueError, KeyError, TypeError, IndexError) as e:
            reply = {'ok': False, 'code': 'bad_request', 'message': '%s: %s' % (type(e).__name__, e)}
        except Exception as e:  # noqa: BLE001 - the host answers every request
            reply = {'ok': False, 'code': 'internal', 'message': '%s: %s' % (type(e).__name__, e)}
        if nonce is not None:
            reply['nonce'] = nonce
        for stream in (sys.stdout, sys.stderr):  # the judge reads the capped files after an answer
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        if not channel.write_line(reply):
            return EXIT_CHANNEL_GONE
        if leave:
            return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    device = 0
    if '--device' in argv:
        value = argv[argv.index('--device') + 1]
        device = -1 if value == 'cpu' else int(value)
    # Builds a module starts (load_inline, Triton) and every cache go to the host's private directory (its cwd).
    here = os.getcwd()
    os.environ['HOME'] = here
    os.environ.setdefault('TORCH_EXTENSIONS_DIR', os.path.join(here, 'torch_extensions'))
    os.environ.setdefault('TRITON_CACHE_DIR', os.path.join(here, 'triton'))
    os.environ.setdefault('XDG_CACHE_HOME', os.path.join(here, 'cache'))
    # torch.compile compiles in this process: a pool of compile workers would need semaphores in /dev/shm, where a
    # host creates nothing (docs/sandbox.md).
    os.environ.setdefault('TORCHINDUCTOR_COMPILE_THREADS', '1')
    try:
        channel = Channel(CHANNEL_FD)
    except OSError:
        return EXIT_CHANNEL_GONE
    status = serve(channel, Host(device))
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)  # no interpreter teardown (unloading torch takes most of a second)
