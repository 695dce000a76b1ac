"""kforge-torch-worker: the judge process. Serves the kforge-worker JSON-lines protocol (docs/worker-protocol.md)
for tasks of kind torch; every reference and candidate module runs in a host process of its own
(docs/torch-worker.md)."""

import argparse
import base64
import hashlib
import json
import os
import shutil
import sys
import tempfile

PROTOCOL = 1
ABI_VERSION = 1
VERSION = '0.1.0'
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class RequestError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code, self.message = code, message


def abi_include():
    """kforge/kernel.h for .cu candidates: KFORGE_ABI_INCLUDE, an installed share/kforge/include, or the
    source tree's core/runtime/include."""
    candidates = [os.environ.get('KFORGE_ABI_INCLUDE', ''),
                  os.path.join(os.path.dirname(PACKAGE_ROOT), 'include'),
                  os.path.join(os.path.dirname(PACKAGE_ROOT), 'core', 'runtime', 'include')]
    for c in candidates:
        if c and os.path.isfile(os.path.join(c, 'kforge', 'kernel.h')):
            return c
    return candidates[-1]


def nvcc():
    if os.environ.get('KFORGE_NVCC'):
        return os.environ['KFORGE_NVCC']
    found = shutil.which('nvcc')
    if found:
        return found
    for home in (os.environ.get('CUDA_HOME'), os.environ.get('CUDA_PATH'), '/usr/local/cuda'):
        if home and os.path.isfile(os.path.join(home, 'bin', 'nvcc')):
            return os.path.join(home, 'bin', 'nvcc')
    return 'nvcc'


class Judge:
    def __init__(self, device, out):
        self.device_arg, self.out = device, out
        self.slots = {}
        self.digests = {}
        self.dir = tempfile.mkdtemp(prefix='kforge-torch-judge-')
        self._torch = None
        self.spares = {}  # (role, device) -> booted, unused HostProcesses for the next evaluations, oldest first
        # Candidate hosts kept booting ahead (KFORGE_TORCH_SPARES, default 2; 0: none). A host's boot (import
        # torch, a CUDA context) takes 1.5-3 s on the H200 host, longer than a warm evaluation: with one spare
        # the next evaluation of a round waited up to 1.4 s for it (session 7); two stay ahead of the client.
        try:
            self.depth = max(0, min(4, int(os.environ.get('KFORGE_TORCH_SPARES', '2'))))
        except ValueError:
            self.depth = 2
        self.warm = self.depth > 0
        self.closing = None  # the last evaluation's close (its hosts ended, its buffers freed), after its reply
        self.warm_reference = None  # evaluate.WarmReference: the reference host the next evaluation may reuse
        self.reuse = os.environ.get('KFORGE_TORCH_REUSE_REFERENCE', '1') != '0'
        # (reference digest, device, task) -> the reference side of its trace pass: traced once, as
        # kforge-worker measures a reference's metrics once (its host is then not kept: CUPTI stays in it)
        self.reference_traces = {}
        # Hosts forked from a zygote that imported torch once (zygote.py; KFORGE_TORCH_ZYGOTE=0: every host
        # spawned and importing torch itself, as before)
        self.zygote = None
        if os.environ.get('KFORGE_TORCH_ZYGOTE', '1') != '0':
            from .hostproc import Zygote
            try:
                self.zygote = Zygote()
            except OSError as e:
                print('kforge-torch-worker: no host zygote (%s): hosts are spawned' % e, file=sys.stderr)

    def defer_close(self, close):
        """The evaluation's hosts end after its reply: tearing down two CUDA contexts takes most of a second,
        which the client's own time between evaluations absorbs. The next evaluation waits for it before its
        timing (or, never timed, before its own close), so it never overlaps a measurement. Returns that wait."""
        import threading
        waited = self.join_closing()  # the last one's, when this evaluation never reached its timing
        self.closing = threading.Thread(target=close, name='kforge-close', daemon=True)
        self.closing.start()
        return waited

    def keep(self, evaluation, warm, device, key):
        """After an evaluation: its reference host becomes (or stays) the warm reference when it may."""
        from .evaluate import WarmReference
        if evaluation.ref_trace is not None:
            self.reference_traces[(self.digests['reference'], device, key)] = evaluation.ref_trace
        if not (self.reuse and evaluation.keep_reference):
            if warm is not None and evaluation.ref is not warm.host:
                self.drop(warm)
            return
        if warm is None:
            warm = WarmReference(evaluation.ref, self.digests['reference'], device, key, evaluation.ref_info,
                                 evaluation.ref_state, evaluation.reference_seed)
        warm.evaluations += 1
        self.warm_reference = warm

    def drop(self, warm):
        self.join_closing()
        warm.host.close()

    def join_closing(self):
        """Seconds waited for the last evaluation's close."""
        import time
        if self.closing is None:
            return 0.0
        started = time.monotonic()
        self.closing.join()
        self.closing = None
        return time.monotonic() - started

    def take_host(self, role, path, device):
        """A host for one evaluation: the spare started after the last one (booted while the client was busy),
        or a fresh one. Either way a process no other evaluation has used."""
        from .hostproc import HostProcess
        queue = self.spares.get((role, device), [])
        while queue:
            spare = queue.pop(0)
            if spare.alive() and self.booted_if_forked(spare):
                spare.assign(path)
                return spare
            spare.close()
        host = HostProcess(role, path, device, self.zygote)
        if not self.booted_if_forked(host):
            host.close()
            host = HostProcess(role, path, device)  # the zygote is off now: spawned
        return host

    def booted_if_forked(self, host):
        """False for a forked host that could not boot: the zygote is then turned off and hosts are spawned, as
        before it existed (a fork that CUDA refuses must cost one host, not every evaluation)."""
        import time
        from .hostproc import HostFailure
        if not host.forked:
            return True
        try:
            host.wait_booted(time.monotonic() + 60)
            return True
        except HostFailure as f:
            self.zygote.disable('a host forked from it could not boot: %s' % f.message)
            print('kforge-torch-worker: zygote off, hosts are spawned: %s' % self.zygote.why, file=sys.stderr)
            return False

    def start_spares(self, device):
        """Starts the next evaluation's hosts now, between evaluations (never while one is timed), so that
        importing torch and making a CUDA context is not on the next evaluation's clock."""
        if not self.warm:
            return
        from .hostproc import HostProcess
        for role in ('reference', 'candidate'):
            if role == 'reference' and self.warm_reference is not None:
                continue  # the next evaluation of this reference reuses its host
            queue = self.spares.setdefault((role, device), [])
            while len(queue) < (self.depth if role == 'candidate' else 1):
                queue.append(HostProcess(role, None, device, self.zygote))

    def settle_spares(self, device):
        """Seconds waited for this device's forked spare hosts to finish booting (their CUDA contexts), so that
        none is made while the evaluation is timed. A forked boot is its CUDA context alone; a spawned one
        (importing torch, 3-4 s on the H100 host) is not waited for, as before the zygote. A forked spare that
        cannot boot is dropped and turns the zygote off."""
        import time
        started = time.monotonic()
        for key, queue in self.spares.items():
            if key[1] != device:
                continue
            for host in [h for h in queue if h.forked]:
                if not (host.alive() and self.booted_if_forked(host)):
                    queue.remove(host)
                    host.close()
        return round(time.monotonic() - started, 3)

    def close_spares(self):
        self.join_closing()
        if self.warm_reference is not None:
            self.warm_reference.host.close()
            self.warm_reference = None
        for queue in self.spares.values():
            for host in queue:
                host.close()
        self.spares = {}

    @property
    def torch(self):
        if self._torch is None:
            import torch  # imported on first use: hello answers at once
            self._torch = torch
        return self._torch

    def device(self):
        if self.device_arg == 'cpu':
            return 'cpu'
        if not self.torch.cuda.is_available():
            raise RequestError('no_device', 'no CUDA device: torch.cuda.is_available() is False (torch %s); '
                                            'start kforge-torch-worker --device cpu to evaluate on the CPU'
                               % self.torch.__version__)
        index = int(self.device_arg)
        if index >= self.torch.cuda.device_count():
            raise RequestError('no_device', 'no CUDA device: index %d of %d devices'
                               % (index, self.torch.cuda.device_count()))
        return 'cuda:%d' % index

    def write(self, obj):
        self.out.write(json.dumps(obj) + '\n')
        self.out.flush()

    def op_hello(self, req):
        if req.get('protocol') != PROTOCOL:
            raise RequestError('protocol_mismatch', 'the torch worker speaks protocol %d, not %r'
                               % (PROTOCOL, req.get('protocol')))
        return {'protocol': PROTOCOL, 'worker_version': VERSION, 'abi_version': ABI_VERSION, 'pid': os.getpid(),
                'device_index': -1 if self.device_arg == 'cpu' else int(self.device_arg), 'kinds': ['torch']}

    def op_device_info(self, req):
        device = self.device()
        torch = self.torch
        if device == 'cpu':
            return {'device': {'index': -1, 'name': 'cpu', 'kind': 'cpu', 'torch_version': torch.__version__,
                               'cpu_count': os.cpu_count()}}
        index = int(self.device_arg)
        p = torch.cuda.get_device_properties(index)
        return {'device': {'index': index, 'name': p.name, 'cc_major': p.major, 'cc_minor': p.minor,
                           'arch': 'sm_%d%d' % (p.major, p.minor), 'sm_count': p.multi_processor_count,
                           'memory_bytes': p.total_memory, 'l2_bytes': getattr(p, 'L2_cache_size', 0),
                           'runtime_version': str(torch.version.cuda), 'torch_version': torch.__version__}}

    def op_load(self, req):
        slot = req.get('slot')
        if slot not in ('reference', 'candidate'):
            raise RequestError('bad_request', 'slot: "reference" or "candidate" is needed')
        self.slots.pop(slot, None)
        if isinstance(req.get('so_base64'), str):
            # A .cu candidate KForge compiled already (its compiler, cache and diagnostics), sent as kforge-worker's
            # clients send shared objects.
            req = dict(req, source_base64=req['so_base64'], filename='candidate.so')
        if isinstance(req.get('source'), str) or isinstance(req.get('source_base64'), str):
            name = os.path.basename(str(req.get('filename', slot + '.py')))
            if not name.endswith(('.py', '.cu', '.so')):
                raise RequestError('bad_request', 'filename: a .py, .cu or .so name is needed')
            folder = tempfile.mkdtemp(prefix=slot + '-', dir=self.dir)
            path = os.path.join(folder, name)
            data = req['source'].encode() if 'source' in req else base64.b64decode(req['source_base64'])
            with open(path, 'wb') as f:
                f.write(data)
        elif isinstance(req.get('path'), str):
            path = os.path.abspath(req['path'])
        else:
            raise RequestError('bad_request', 'path: a file path (or source with filename) is needed')
        if not path.endswith(('.py', '.cu', '.so')):
            raise RequestError('load_failed', '%s: a torch worker loads a .py module (Model / ModelNew), a '
                                              'KForge .cu kernel or its compiled .so' % path)
        if slot == 'reference' and path.endswith(('.cu', '.so')):
            raise RequestError('load_failed', '%s: the reference of a torch task is a .py module' % path)
        try:
            with open(path, 'rb') as f:
                digest = hashlib.sha256(f.read()).hexdigest()
        except OSError as e:
            raise RequestError('load_failed', '%s: cannot be read: %s' % (path, e.strerror)) from None
        self.slots[slot] = path
        self.digests[slot] = digest  # a warm reference serves only the same bytes (judge.keep)
        if slot == 'reference':
            try:
                self.start_spares(self.device())
            except RequestError:
                pass  # no device: evaluate says so
        return {'abi_version': ABI_VERSION, 'kind': 'py' if path.endswith('.py') else 'cu'}

    def op_evaluate(self, req):
        from .evaluate import Evaluation
        from .spec import TaskError, TorchTask
        for slot in ('reference', 'candidate'):
            if slot not in self.slots:
                raise RequestError('bad_request', 'evaluate: the %s slot is empty (load it first)' % slot)
        options = req.get('options', {})
        if not isinstance(options, dict):
            raise RequestError('bad_request', 'options: an object is needed')
        try:
            task = TorchTask(req.get('task'))
        except TaskError as e:
            raise RequestError('bad_request', str(e)) from None
        device = self.device()
        setup = {'nvcc': nvcc(), 'abi_include': abi_include(),
                 'nvcc_flags': [str(f) for f in (req.get('task') or {}).get('nvcc_flags', [])]}
        try:
            evaluation = Evaluation(task, self.slots['reference'], self.slots['candidate'], options, device, setup,
                                    hosts=self.take_host)
            evaluation.defer_close = self.defer_close
            evaluation.before_timing = lambda: {'previous_close': round(self.join_closing(), 3),
                                                'spare_boot': self.settle_spares(device)}
            key = json.dumps(req.get('task'), sort_keys=True)
            warm, self.warm_reference = self.warm_reference, None
            evaluation.ref_trace_cached = self.reference_traces.get((self.digests['reference'], device, key))
            if warm is not None and warm.fits(self.digests['reference'], device, key):
                evaluation.warm = warm
            elif warm is not None:
                self.drop(warm)
            result = evaluation.run()
            self.keep(evaluation, warm if evaluation.warm is warm else None, device, key)
        except (ValueError, TypeError) as e:
            raise RequestError('bad_request', 'options: %s' % e) from None
        self.start_spares(device)
        return {'result': result}

    def serve(self, stream):
        self.write({'event': 'ready', 'protocol': PROTOCOL, 'worker_version': VERSION, 'abi_version': ABI_VERSION,
                    'pid': os.getpid(), 'kind': 'torch'})
        ops = {'hello': self.op_hello, 'device_info': self.op_device_info, 'load': self.op_load,
               'evaluate': self.op_evaluate}
        for line in stream:
            if not line.strip():
                continue
            try:
                req = json.loads(line)
            except ValueError as e:
                self.write({'id': None, 'ok': False, 'error': {'code': 'bad_request', 'message': 'not JSON: %s' % e}})
                continue
            if not isinstance(req, dict):
                self.write({'id': None, 'ok': False, 'error': {'code': 'bad_request',
                                                               'message': 'a request is a JSON object'}})
                continue
            reply = {'id': req.get('id')}
            if isinstance(req.get('token'), str):
                reply['token'] = req['token']
            op = req.get('op')
            if op == 'shutdown':
                self.write(dict(reply, ok=True))
                return 0
            try:
                if op not in ops:
                    raise RequestError('bad_request', 'unknown op %r' % (op,))
                self.write(dict(reply, ok=True, **ops[op](req)))
            except RequestError as e:
                self.write(dict(reply, ok=False, error={'code': e.code, 'message': e.message}))
            except Exception as e:  # noqa: BLE001 - the judge's own failure is an answer, never a silent exit
                self.write(dict(reply, ok=False, error={'code': 'internal', 'message': '%s: %s'
                                                        % (type(e).__name__, e)}))
        return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog='kforge-torch-worker', description=__doc__.splitlines()[0])
    parser.add_argument('--device', default='0', help='CUDA device index, or "cpu" (default 0)')
    parser.add_argument('--version', action='store_true')
    args = parser.parse_args(argv)
    if args.version:
        print('kforge-torch-worker %s (protocol %d, kernel ABI %d)' % (VERSION, PROTOCOL, ABI_VERSION))
        return 0
    if args.device != 'cpu' and not args.device.isdigit():
        parser.error('--device: an index or "cpu"')
    out = sys.stdout
    sys.stdout = sys.stderr  # whatever else prints in this process goes to the log, not the protocol
    judge = Judge(args.device, out)
    try:
        return judge.serve(sys.stdin)
    finally:
        judge.close_spares()
        if judge.zygote is not None:
            judge.zygote.close()
        shutil.rmtree(judge.dir, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
