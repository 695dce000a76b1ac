"""Before the judge starts: does this python have torch? The launcher (kforge-torch-worker) asks, so that a worker
whose `python3` lacks torch says so in one line instead of dying with a traceback before its ready line.

- This python has torch: the judge starts, as before.
- It has none but another python does (the ones `kforge-cli import` tries: $KFORGE_TORCH_PYTHON, `python3` on PATH,
  /usr/bin/python3): the launcher runs again with that one, and says so on stderr. Import and evaluation then use
  the same torch on the same machine.
- None has it: the worker still speaks the protocol (ready, hello) and answers every other request with the error
  code `no_torch`, the python it ran with, the cause and the fix, so that the client shows why and what to do.

`kforge-torch-worker --check` prints the same facts for a person: python, torch, CUDA.
No torch is imported here unless asked (--check): finding the module is enough to decide, and costs milliseconds.
"""
import importlib.util
import json
import os
import shutil
import subprocess
import sys

PROTOCOL = 1
ABI_VERSION = 1
REEXEC_MARK = 'KFORGE_TORCH_WORKER_PYTHON_TRIED'
FIND_TORCH = 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("torch") else 3)'


def has_torch():
    try:
        return importlib.util.find_spec('torch') is not None
    except (ImportError, ValueError):
        return False


def candidates():
    """The pythons `kforge-cli import` tries, in its order, as absolute paths; this one left out. A python that
    $KFORGE_TORCH_PYTHON names is the only one: the user chose it, and another one must not stand in silently."""
    chosen = os.environ.get('KFORGE_TORCH_PYTHON', '')
    names = [chosen] if chosen else ['python3', '/usr/bin/python3']
    here = os.path.realpath(sys.executable or '')
    seen, out = {here}, []
    for name in names:
        if not name:
            continue
        path = name if os.sep in name else shutil.which(name)
        if not path or not os.access(path, os.X_OK):
            continue
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            out.append(path)
    return out


def python_with_torch():
    """The first other python that finds torch, or None."""
    for python in candidates():
        try:
            if subprocess.run([python, '-c', FIND_TORCH], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=30).returncode == 0:
                return python
        except (OSError, subprocess.SubprocessError):
            continue
    return None


def no_torch_message(cause):
    """One line: which python, why, what was tried, and the fix."""
    chosen = os.environ.get('KFORGE_TORCH_PYTHON', '')
    tried = ['KFORGE_TORCH_PYTHON=%s' % p if p == chosen else p for p in candidates()]
    return ('%s (Python %s) cannot import torch (%s)%s. Install PyTorch for it (pip install torch; Debian and '
            'Ubuntu: apt install python3-torch), or set KFORGE_TORCH_PYTHON to a python3 that has torch'
            % (sys.executable, sys.version.split()[0], cause,
               '; nor can %s' % ', '.join(tried) if tried else ''))


def ensure_torch(script, argv):
    """Returns when this python has torch. Otherwise runs the script again with a python that has it (never
    returns), or serves the protocol with `no_torch` answers and exits."""
    if has_torch():
        return
    cause = "No module named 'torch'"
    if not os.environ.get(REEXEC_MARK):
        other = python_with_torch()
        if other is not None:
            print('kforge-torch-worker: %s has no torch; running with %s, which has it (set KFORGE_TORCH_PYTHON '
                  'to choose another)' % (sys.executable, other), file=sys.stderr, flush=True)
            os.environ[REEXEC_MARK] = sys.executable
            os.execv(other, [other, script] + list(argv))
    if '--check' in argv:
        print('python: %s (Python %s)\ntorch: missing: %s' % (sys.executable, sys.version.split()[0],
                                                              no_torch_message(cause)))
        sys.exit(1)
    if '--version' in argv or '-h' in argv or '--help' in argv:
        return  # the judge's argument parser answers these without torch
    sys.exit(serve_refusal(no_torch_message(cause)))


def serve_refusal(message, stream=None, out=None):
    """The protocol with every request but hello and shutdown refused as `no_torch`: the client learns why at its
    first request (device_info) instead of from a process that died before its ready line."""
    stream = stream or sys.stdin
    out = out or sys.stdout
    print('kforge-torch-worker: %s' % message, file=sys.stderr, flush=True)

    def write(obj):
        out.write(json.dumps(obj) + '\n')
        out.flush()
    write({'event': 'ready', 'protocol': PROTOCOL, 'worker_version': '0.1.0', 'abi_version': ABI_VERSION,
           'pid': os.getpid(), 'kind': 'torch'})
    for line in stream:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError:
            continue
        if not isinstance(req, dict):
            continue
        reply = {'id': req.get('id')}
        if isinstance(req.get('token'), str):
            reply['token'] = req['token']
        op = req.get('op')
        if op == 'shutdown':
            write(dict(reply, ok=True))
            return 0
        if op == 'hello':
            write(dict(reply, ok=True, protocol=PROTOCOL, worker_version='0.1.0', abi_version=ABI_VERSION,
                       pid=os.getpid(), device_index=-1, kinds=['torch']))
            continue
        write(dict(reply, ok=False, error={'code': 'no_torch', 'message': message}))
    return 0


def check():
    """--check with torch present: python, torch and CUDA, one line each; exit status 0 when CUDA is usable."""
    print('python: %s (Python %s)' % (sys.executable, sys.version.split()[0]))
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - a broken torch install is a finding, not a crash
        print('torch: cannot be imported: %s: %s' % (type(e).__name__, e))
        return 1
    print('torch: %s (%s)' % (torch.__version__, os.path.dirname(torch.__file__)))
    if torch.version.cuda is None:
        print('CUDA: missing: this torch is a CPU-only build (torch.version.cuda is None); install a CUDA build of '
              'PyTorch to evaluate on a GPU, or run kforge-torch-worker --device cpu')
        return 1
    if not torch.cuda.is_available():
        print('CUDA: missing: torch %s was built for CUDA %s but finds no usable GPU (no NVIDIA driver, or one older '
              'than that CUDA needs)' % (torch.__version__, torch.version.cuda))
        return 1
    names = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    print('CUDA: %s, %d GPU(s): %s' % (torch.version.cuda, len(names), ', '.join(names)))
    return 0
