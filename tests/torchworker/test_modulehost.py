#!/usr/bin/env python3
"""The module host (torchworker/kforge_torchworker/modulehost.py) against a small driver that speaks the
candidate-host protocol as kforge-worker does: a channel at fd 3 (socketpair), a nonce per request, buffers the
driver owns and lends (memfds sent with the map line on the CPU; CUDA IPC allocations and events on a GPU with
KFORGE_TORCH_DEVICE=0). Covers the module's load and weights, the calls, and every failure named with its step.
Exit 77 (SKIP) when this python has no torch.
Usage: test_modulehost.py HOST_SCRIPT [unittest args]"""

import array
import ctypes
import ctypes.util
import json
import mmap
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import unittest

try:
    import torch
except ImportError:
    print('SKIP: no torch in %s' % sys.executable)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
HOST = ''
DEVICE = os.environ.get('KFORGE_TORCH_DEVICE', 'cpu')
if DEVICE != 'cpu' and not torch.cuda.is_available():
    print('SKIP: KFORGE_TORCH_DEVICE=%s but torch %s sees no CUDA device' % (DEVICE, torch.__version__))
    sys.exit(77)
NAMES = {torch.float32: 'f32', torch.float16: 'f16', torch.bfloat16: 'bf16', torch.float64: 'f64',
         torch.int64: 'i64', torch.int32: 'i32', torch.bool: 'bool', torch.uint8: 'u8'}
DTYPES = {v: k for k, v in NAMES.items()}
ALIGN = 256


def nbytes(dtype, shape):
    n = 1
    for d in shape:
        n *= d
    return n * torch.empty(0, dtype=dtype).element_size()


class Arena:
    """One buffer the driver owns (a memfd on the CPU, a cuMemAlloc on a GPU), carved into tensors at aligned
    offsets: what the judge lends a host."""

    def __init__(self, ident, layout):
        self.ident, self.offsets, size = ident, [], 0
        for dtype, shape in layout:
            self.offsets.append(size)
            size += (nbytes(dtype, shape) + ALIGN - 1) // ALIGN * ALIGN
        self.size = max(size, ALIGN)
        self.layout = layout
        if DEVICE == 'cpu':
            self.fd = os.memfd_create('kforge-arena')
            os.ftruncate(self.fd, self.size)
            self.mm = mmap.mmap(self.fd, self.size)
            raw = torch.frombuffer(self.mm, dtype=torch.uint8)
        else:
            from kforge_torchworker import gpuipc
            gpuipc.ensure_context(int(DEVICE))
            self.shared = gpuipc.SharedBuffer(torch.uint8, [self.size], torch.device('cuda', int(DEVICE)))
            raw = self.shared.tensor
            import base64
            self.handle = base64.b64decode(self.shared.handle).hex()
        self.tensors = [raw[o:o + nbytes(d, s)].view(d).view(s) for o, (d, s) in zip(self.offsets, layout)]

    def ref(self, k):
        return [self.ident, self.offsets[k]]

    def entry(self):
        e = {'id': self.ident, 'bytes': self.size}
        if DEVICE != 'cpu':
            e['handle'] = self.handle
        return e


class IpcEvents:
    """The go and done events of a batch on a GPU: interprocess events of the driver API, recorded and waited
    for by the driver."""

    def __init__(self):
        from kforge_torchworker import gpuipc
        self.cu = gpuipc.driver()
        self.events, self.handles = [], []
        for _ in range(2):
            ev = ctypes.c_void_p()
            gpuipc.check(self.cu.cuEventCreate(ctypes.byref(ev), 2 | 4), 'cuEventCreate')  # no timing, interprocess
            h = gpuipc.Handle()
            gpuipc.check(self.cu.cuIpcGetEventHandle(ctypes.byref(h), ev), 'cuIpcGetEventHandle')
            self.events.append(ev)
            self.handles.append(ctypes.string_at(ctypes.addressof(h), 64).hex())

    def entries(self):
        return [{'id': i, 'handle': h} for i, h in enumerate(self.handles)]

    def record_go(self):
        torch.cuda.synchronize()
        self.cu.cuEventRecord(self.events[0], None)

    def wait_done(self):
        self.cu.cuEventSynchronize(self.events[1])


class Host:
    def __init__(self, test):
        self.dir = tempfile.mkdtemp(prefix='kforge-mhost-')
        test.addCleanup(shutil.rmtree, self.dir, True)
        self.sock, child = socket.socketpair()
        fd = child.fileno()
        with open(os.path.join(self.dir, 'stdout.txt'), 'wb') as out, \
                open(os.path.join(self.dir, 'stderr.txt'), 'wb') as err:
            self.proc = subprocess.Popen(
                [sys.executable, '-I', '-B', HOST, '--device', DEVICE], cwd=self.dir, stdin=subprocess.DEVNULL,
                stdout=out, stderr=err, preexec_fn=lambda: os.dup2(fd, 3), pass_fds=(3,) if fd != 3 else ())
        child.close()
        self.buffer = b''
        self.nonce = 0
        test.addCleanup(self.close)

    def send(self, req, fds=()):
        self.nonce += 1
        req = dict(req, nonce='n%d' % self.nonce)
        line = json.dumps(req).encode() + b'\n'
        if fds:
            self.sock.sendmsg([line], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', fds))])
        else:
            self.sock.sendall(line)
        return req['nonce']

    def read(self, timeout=120):
        self.sock.settimeout(timeout)
        while b'\n' not in self.buffer:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b'\n')
        return json.loads(line)

    def ask(self, fds=(), **req):
        nonce = self.send(req, fds)
        reply = self.read()
        if reply is not None:
            assert reply.pop('nonce', None) == nonce, reply
        return reply

    def stderr(self):
        with open(os.path.join(self.dir, 'stderr.txt'), errors='replace') as f:
            return f.read()

    def close(self):
        if self.proc.poll() is None:
            try:
                self.ask(op='exit')
                self.proc.wait(10)
            except (OSError, subprocess.TimeoutExpired, AssertionError, ValueError):
                self.proc.kill()
                self.proc.wait()
        self.sock.close()


def init(test, path, slot='candidate', **extra):
    host = Host(test)
    reply = host.ask(op='init', slot=slot, library=os.path.join(DATA, path), **extra)
    return host, reply


def write(test, name, text):
    d = tempfile.mkdtemp(prefix='kforge-mod-')
    test.addCleanup(shutil.rmtree, d, True)
    path = os.path.join(d, name)
    with open(path, 'w') as f:
        f.write(text)
    return path


class Evaluation:
    """What the judge does around two hosts of matmul_relu: the reference's state exported into a lent arena,
    moved away from its initial values, loaded into both; inputs and outputs lent; calls run."""

    M, K, N = 32, 48, 16

    def __init__(self, test, candidate, calls=3, seed=7):
        self.test = test
        self.ref, r = init(test, 'matmul_relu.py', slot='reference', seed=seed)
        test.assertTrue(r['ok'], r)
        self.state = r['state']
        self.cand, c = init(test, candidate, init_args=r['init_args'], seed=seed + 1)
        self.cand_init = c
        self.calls = calls
        layout_state = [(DTYPES[s['dtype']], s['shape']) for s in self.state]
        self.weights = Arena(0, layout_state)
        io = []
        for _ in range(calls):
            io += [(torch.float32, [self.M, self.K]), (torch.float32, [self.M, self.N])]
        self.io = {side: Arena(1, io) for side in ('ref', 'cand')}

    def entries(self):
        return [{'name': s['name'], 'dtype': s['dtype'], 'shape': s['shape'], 'ref': self.weights.ref(k)}
                for k, s in enumerate(self.state)]

    def map(self, host, side):
        arenas = [self.weights, self.io[side]]
        req = dict(op='map', exchange='fd' if DEVICE == 'cpu' else 'ipc', buffers=[a.entry() for a in arenas],
                   signature={'args': [{'dtype': 'f32', 'shape': [self.M, self.K]}],
                              'outputs': [{'dtype': 'f32', 'shape': [self.M, self.N]}]})
        if DEVICE == 'cpu':
            return host.ask(fds=[a.fd for a in arenas], **req)
        self.events = IpcEvents()
        return host.ask(events=self.events.entries(), **req)

    def perturb(self, seed=11):
        g = torch.Generator().manual_seed(seed)
        for t in self.weights.tensors:
            noise = torch.randn(t.shape, generator=g).to(t.device)
            t.copy_(t * (1.0 + 0.5 * noise) + 0.5 * torch.randn(t.shape, generator=g).to(t.device))

    def run(self, host, side, inputs):
        arena = self.io[side]
        for k, x in enumerate(inputs):
            arena.tensors[2 * k].copy_(x)
            arena.tensors[2 * k + 1].fill_(float('nan'))
        calls = [{'inputs': [arena.ref(2 * k)], 'outputs': [arena.ref(2 * k + 1)]} for k in range(len(inputs))]
        if DEVICE != 'cpu':
            self.events.record_go()
        r = host.ask(op='batch', go=0, done=1, calls=calls)
        self.test.assertTrue(r['ok'], r)
        if DEVICE != 'cpu':
            self.events.wait_done()
        fin = host.ask(op='finish')
        self.test.assertTrue(fin['ok'], fin)
        return fin, [arena.tensors[2 * k + 1].clone().cpu() for k in range(len(inputs))]

    def expected(self, x):
        w = {s['name']: t.cpu() for s, t in zip(self.state, self.weights.tensors)}
        return torch.relu(x.cpu() @ w['linear.weight'].t() + w['linear.bias'] + w['offset'])


class ModuleHostTest(unittest.TestCase):
    def inputs(self, n, seed=3):
        g = torch.Generator().manual_seed(seed)
        dev = 'cpu' if DEVICE == 'cpu' else 'cuda:%s' % DEVICE
        return [torch.randn(Evaluation.M, Evaluation.K, generator=g).to(dev) for _ in range(n)]

    def test_reference_reports_what_it_was_built_with(self):
        host, r = init(self, 'matmul_relu.py', slot='reference', seed=5)
        self.assertTrue(r['ok'], r)
        self.assertEqual(r['init_args'], [48, 16])
        self.assertEqual(r['forward'], ['x'])
        self.assertEqual(r['abi'], 1)
        self.assertEqual(r['device'], DEVICE != 'cpu')
        self.assertEqual([(s['name'], s['dtype'], s['shape'], s['kind']) for s in r['state']],
                         [('offset', 'f32', [16], 'buffer'), ('linear.weight', 'f32', [16, 48], 'parameter'),
                          ('linear.bias', 'f32', [16], 'parameter')])  # state_dict's order: own entries first
        self.assertIn('no guard library', ' '.join(r['protections']['notes']))
        # The same seed builds the same weights; the reply echoes the nonce of its own request only.
        self.assertEqual(host.ask(op='init', slot='reference', library='x')['code'], 'bad_request')

    def test_judge_weights_reach_both_sides_and_calls_match(self):
        e = Evaluation(self, 'matmul_relu_good.py')
        self.assertTrue(e.cand_init['ok'], e.cand_init)
        self.assertTrue(e.map(e.ref, 'ref')['ok'])
        self.assertTrue(e.map(e.cand, 'cand')['ok'])
        initial = [t.clone() for t in e.weights.tensors]
        r = e.ref.ask(op='state', direction='export', entries=e.entries())
        self.assertTrue(r['ok'], r)
        self.assertFalse(all(torch.equal(a, b) for a, b in zip(initial, e.weights.tensors)),
                         'the export wrote the reference\'s weights into the lent buffer')
        e.perturb()
        for host in (e.ref, e.cand):
            r = host.ask(op='state', direction='load', entries=e.entries())
            self.assertTrue(r['ok'], r)
            self.assertEqual(r['entries'], 3)
        xs = self.inputs(3)
        for host, side in ((e.ref, 'ref'), (e.cand, 'cand')):
            fin, outs = e.run(host, side, xs)
            self.assertEqual(fin['rc'], [0, 0, 0], fin)
            self.assertEqual(fin['errors'], [])
            self.assertIsNone(fin['cuda_error'])
            for x, out in zip(xs, outs):
                torch.testing.assert_close(out, e.expected(x), rtol=1e-4, atol=1e-4)

    def test_a_candidate_that_ignores_a_buffer_differs_once_the_weights_move(self):
        e = Evaluation(self, 'matmul_relu_wrong.py')  # forgets `offset`, which Model initialises at random
        e.map(e.ref, 'ref')
        e.map(e.cand, 'cand')
        e.ref.ask(op='state', direction='export', entries=e.entries())
        e.perturb()
        e.cand.ask(op='state', direction='load', entries=e.entries())
        xs = self.inputs(2)
        _, outs = e.run(e.cand, 'cand', xs)
        self.assertFalse(torch.allclose(outs[0], e.expected(xs[0]), rtol=1e-3, atol=1e-3))

    def test_state_dict_keys_named(self):
        e = Evaluation(self, 'matmul_relu_keys.py')
        e.map(e.cand, 'cand')
        r = e.cand.ask(op='state', direction='load', entries=e.entries())
        self.assertFalse(r['ok'])
        self.assertEqual((r['code'], r['step']), ('state_mismatch', 'load_state_dict'))
        self.assertIn('"proj.weight"', r['message'])
        self.assertIn('"linear.weight"', r['message'])
        self.assertTrue(r['message'].startswith('matmul_relu_keys.py: the candidate failed at step load_state_dict'))

    def test_state_shape_named(self):
        e = Evaluation(self, 'matmul_relu_good.py')
        e.map(e.cand, 'cand')
        entries = [dict(x, shape=[17]) if x['name'] == 'linear.bias' else x for x in e.entries()]
        r = e.cand.ask(op='state', direction='load', entries=entries)
        self.assertEqual(r['code'], 'state_mismatch')
        self.assertIn('"linear.bias" is f32 [16] here, the reference\'s is f32 [17]', r['message'])

    def test_forward_failures_named_per_call(self):
        # step: forward where the module raised, output where it returned what the task does not declare
        # (the judge's verdict: crashed or incorrect).
        cases = {'matmul_relu_raises.py': ('forward', "RuntimeError: kernel not written yet (at matmul_relu_raises.py line"),
                 'matmul_relu_dtype.py': ('output', 'output 0 has dtype f64, the task declares f32'),
                 'matmul_relu_shape.py': ('output', 'output 0 has shape [16, 32], the task declares [32, 16]')}
        for path, (step, *words) in cases.items():
            with self.subTest(path):
                e = Evaluation(self, path)
                self.assertTrue(e.map(e.cand, 'cand')['ok'])
                e.cand.ask(op='state', direction='load', entries=e.entries())
                fin, outs = e.run(e.cand, 'cand', self.inputs(3))
                self.assertEqual(fin['rc'], [1, 2, 2], fin)  # the first fails, the rest are not run
                self.assertEqual(fin['errors'][0]['call'], 0)
                self.assertEqual(fin['errors'][0]['step'], step)
                for w in words:
                    self.assertIn(w, fin['errors'][0]['message'])
                self.assertTrue(torch.isnan(outs[0]).all(), 'a failed call leaves its output untouched')

    def test_load_failures_named(self):
        cases = [
            (write(self, 'syntax.py', 'import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x)\n'),
             'import', 'SyntaxError'),
            (write(self, 'noclass.py', 'import torch\nclass Other(torch.nn.Module):\n    pass\n'),
             'class', 'no torch.nn.Module class ModelNew in noclass.py (it defines: Other)'),
            (os.path.join(DATA, 'matmul_relu_signature.py'), 'construct',
             '__init__() takes 2 positional arguments but 3 were given'),
            (write(self, 'raises_at_import.py', 'import torch\nraise SystemExit(4)\n'), 'import', 'SystemExit: 4'),
            (write(self, 'tensor_init.py', 'import torch\nclass ModelNew(torch.nn.Module):\n    pass\n'
                                           'def get_init_inputs():\n    return [torch.ones(2)]\n'),
             'init inputs', 'get_init_inputs() returned a Tensor'),
            ('/nonexistent/cand.py', 'import', 'FileNotFoundError'),
        ]
        for path, step, words in cases:
            with self.subTest(step=step, path=os.path.basename(path)):
                extra = {} if 'tensor_init' in path else {'init_args': [48, 16]}
                host, r = init(self, path, **extra)
                self.assertFalse(r['ok'], r)
                self.assertEqual((r['code'], r['step']), ('load_failed', step))
                self.assertTrue(r['message'].startswith('%s: the candidate failed at step %s: '
                                                        % (os.path.basename(path), step)), r['message'])
                self.assertIn(words, r['message'])
                self.assertEqual(host.ask(op='finish')['code'], 'bad_request')  # nothing loaded: refused, alive

    def test_training_mode_refuses_dropout(self):
        path = write(self, 'dropout.py', 'import torch\nclass ModelNew(torch.nn.Module):\n'
                                         '    def __init__(self):\n        super().__init__()\n'
                                         '        self.drop = torch.nn.Dropout(0.25)\n'
                                         '    def forward(self, x):\n        return self.drop(x)\n')
        host, r = init(self, path, init_args=[], mode='train')
        self.assertFalse(r['ok'], r)
        self.assertEqual((r['code'], r['step']), ('load_failed', 'mode'))
        self.assertIn('drop (p=0.25)', r['message'])
        _, r = init(self, path, init_args=[])  # eval mode (the default): dropout passes its input through
        self.assertTrue(r['ok'], r)
        plain = write(self, 'plain.py', 'import torch\nclass ModelNew(torch.nn.Module):\n'
                                        '    def forward(self, x):\n        return x * 2\n')
        _, r = init(self, plain, init_args=[], mode='train')  # training mode without randomness is judged
        self.assertTrue(r['ok'], r)

    def test_a_candidate_that_exits_ends_the_channel(self):
        e = Evaluation(self, 'matmul_relu_exits.py')
        e.map(e.cand, 'cand')
        e.cand.ask(op='state', direction='load', entries=e.entries())
        arena = e.io['cand']
        if DEVICE != 'cpu':
            e.events.record_go()
        reply = e.cand.ask(op='batch', go=0, done=1,
                           calls=[{'inputs': [arena.ref(0)], 'outputs': [arena.ref(1)]}])
        self.assertIsNone(reply)
        self.assertEqual(e.cand.proc.wait(10), 3)

    def test_a_spare_loads_the_profiler_while_it_boots(self):
        # The judge's spares load its profiler library at boot; a library that cannot serve is named, the host
        # still boots, and a module's init with the same library neither fails nor tries it again.
        host = Host(self)
        missing = os.path.join(self.id(), 'no-such-libkforge_moduleprofile.so')
        boot = host.ask(op='boot', profiler=missing)
        self.assertTrue(boot['ok'], boot)
        self.assertFalse(boot['profiler'], boot)
        self.assertIn('no-such-libkforge_moduleprofile.so', boot['profiler_error'])
        reply = host.ask(op='init', slot='candidate', library=os.path.join(DATA, 'matmul_relu_good.py'), profiler=missing,
                         init_args=[48, 16])
        self.assertTrue(reply['ok'], reply)
        other = Host(self)
        boot = other.ask(op='boot', profiler=ctypes.util.find_library('m') or 'libm.so.6')
        self.assertTrue(boot['ok'] and not boot['profiler'], boot)
        self.assertIn('kforge_module_profile', boot['profiler_error'])

    def test_protocol_refusals(self):
        e = Evaluation(self, 'matmul_relu_good.py')
        host = e.cand
        self.assertEqual(host.ask(op='nonsense')['code'], 'bad_request')
        self.assertEqual(host.ask(op='batch', go=0, done=1, calls=[])['code'], 'bad_request')  # no map yet
        if DEVICE == 'cpu':
            r = host.ask(op='map', exchange='fd', buffers=[e.weights.entry()], signature={'args': [], 'outputs': []})
            self.assertEqual(r['code'], 'bad_request')
            self.assertIn('1 buffers, 0 descriptors', r['message'])
        self.assertTrue(e.map(host, 'cand')['ok'])
        outside = [{'inputs': [[1, e.io['cand'].size - 8]], 'outputs': [[1, 0]]}]
        r = host.ask(op='batch', go=0, done=1, calls=outside)
        self.assertEqual((r['code'], r['message']), ('bad_request', 'a tensor outside its buffer'))
        r = host.ask(op='batch', go=0, done=1, calls=[{'inputs': [[9, 0]], 'outputs': [[1, 0]]}])
        self.assertEqual(r['code'], 'bad_request')
        r = host.ask(op='state', direction='sideways', entries=[])
        self.assertEqual(r['code'], 'bad_request')
        # The CUPTI passes need a device and the judge's profiler library (init's "profiler", none here).
        r = host.ask(op='profile', kind='trace', call={})
        self.assertEqual(r['code'], 'no_device' if DEVICE == 'cpu' else 'no_profiler', r)
        # The judge closes its mappings with an empty map (no signature); a batch then has no mapping.
        self.assertTrue(host.ask(op='map', exchange=('fd' if DEVICE == 'cpu' else 'ipc'), buffers=[], events=[])['ok'])
        self.assertEqual(host.ask(op='batch', go=0, done=1, calls=[])['code'], 'bad_request')
        # A line without the request's nonce is written by nobody but the candidate: the driver would see it.
        host.send({'op': 'finish'})
        self.assertTrue(host.read()['nonce'].startswith('n'))

    def test_outputs_are_never_converted(self):
        """A module returning bf16 where f32 is declared is refused per call, not copied into the f32 buffer."""
        path = write(self, 'lower.py', 'import torch\nclass ModelNew(torch.nn.Module):\n'
                                       '    def __init__(self, a, b):\n        super().__init__()\n'
                                       '        self.linear = torch.nn.Linear(a, b)\n'
                                       '        self.register_buffer("offset", torch.zeros(b))\n'
                                       '    def forward(self, x):\n'
                                       '        return torch.relu(self.linear(x.bfloat16().float()) + self.offset)'
                                       '.bfloat16()\n')
        e = Evaluation(self, path)
        e.map(e.cand, 'cand')
        e.cand.ask(op='state', direction='load', entries=e.entries())
        fin, _ = e.run(e.cand, 'cand', self.inputs(1))
        self.assertEqual(fin['rc'], [1])
        self.assertIn('dtype bf16, the task declares f32', fin['errors'][0]['message'])


if __name__ == '__main__':
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    HOST = os.path.abspath(sys.argv.pop(1))
    sys.path.insert(0, os.path.dirname(HOST))  # the package beside the script, for the driver's GPU buffers
    unittest.main(verbosity=2)
