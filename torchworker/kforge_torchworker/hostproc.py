"""The judge's handle on one host process: started with private pipes, a fresh temp dir as cwd and a process group
of its own; its stdout and stderr captured with a cap; killed with its group when the evaluation ends."""

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from . import wire

OUTPUT_CAP = 64 << 10
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class HostFailure(Exception):
    """The host could not do what was asked: a verdict (timeout, crashed, load_error...) and its message."""

    def __init__(self, verdict, message, step=''):
        super().__init__(message)
        self.verdict, self.message, self.step = verdict, message, step


def _die_with_parent():
    os.setsid()
    try:  # PR_SET_PDEATHSIG = 1: the host ends when the judge does
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


class Capture(threading.Thread):
    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream, self.data, self.truncated = stream, bytearray(), False

    def run(self):
        while True:
            chunk = self.stream.read(65536)
            if not chunk:
                return
            room = OUTPUT_CAP - len(self.data)
            if len(chunk) > room:
                self.truncated = True
            self.data += chunk[:max(0, room)]

    def text(self):
        return self.data.decode('utf-8', 'replace')


class HostProcess:
    """One host process. Started with a path, or as a spare (path None) that boots (imports torch, makes its
    CUDA context) while the judge waits for the next evaluation, and is given its module by assign(); a spare
    serves one evaluation only, as a host started for it would."""

    def __init__(self, role, path, device):
        self.role, self.device = role, device
        self.spare = path is None  # booted before its evaluation
        self.assign(path)
        self.dir = tempfile.mkdtemp(prefix='kforge-torch-%s-' % role)
        to_host_r, self.to_host = os.pipe()
        self.from_host, from_host_w = os.pipe()
        wire.widen(self.to_host)  # 1 MiB instead of 64 KiB: tensors cross in fewer context switches
        wire.widen(from_host_w)
        env = dict(os.environ)
        env['PYTHONPATH'] = PACKAGE_ROOT + (os.pathsep + env['PYTHONPATH'] if env.get('PYTHONPATH') else '')
        env['PYTHONDONTWRITEBYTECODE'] = '1'
        self.proc = subprocess.Popen(
            [sys.executable, '-m', 'kforge_torchworker.host', '--role', role, '--device', device,
             '--fd-in', str(to_host_r), '--fd-out', str(from_host_w)],
            cwd=self.dir, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            pass_fds=(to_host_r, from_host_w), preexec_fn=_die_with_parent)
        os.close(to_host_r)
        os.close(from_host_w)
        os.set_blocking(self.to_host, False)
        self.reader = wire.Reader(self.from_host, limit=(256 << 20) if role == 'candidate' else None)
        self.out, self.err = Capture(self.proc.stdout), Capture(self.proc.stderr)
        self.out.start()
        self.err.start()

    def assign(self, path):
        self.path = path or ''
        self.name = os.path.basename(path) if path else '(%s host)' % self.role

    def alive(self):
        return self.proc.poll() is None

    def request(self, header, tensors, deadline, phase):
        """Sends one request and waits for its answer; a host that dies, breaks the framing or runs past the
        deadline is ended and reported as a HostFailure naming the phase."""
        try:
            wire.send(self.to_host, header, tensors, deadline)
            answer, out = self.reader.receive(deadline)
        except wire.Deadline:
            self.kill()
            raise HostFailure('timeout', '%s (%s): no answer in time during %s; the process group was killed'
                              % (self.name, self.role, phase), phase) from None
        except (wire.WireError, OSError, BrokenPipeError) as e:
            status = self.end(2.0)
            raise HostFailure('crashed', '%s (%s): the process ended during %s (%s; %s)%s' % (
                self.name, self.role, phase, e, self.status_text(status), self.stderr_tail()), phase) from None
        return answer, out

    def status_text(self, status):
        if status is None:
            return 'still running, killed'
        if status < 0:
            try:
                return 'signal %s' % signal.Signals(-status).name
            except ValueError:
                return 'signal %d' % -status
        return 'exit status %d' % status

    def stderr_tail(self):
        self.err.join(0.5)
        tail = self.err.text().strip()[-1500:]
        return ('; stderr: ' + tail) if tail else ''

    def end(self, wait_s):
        try:
            return self.proc.wait(wait_s)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass

    def close(self):
        """Ends the host and its whole group (whatever it started), then removes its directory."""
        try:
            wire.send(self.to_host, {'op': 'shutdown'}, deadline=time.monotonic() + 0.5)
        except (OSError, wire.Deadline):
            pass
        deadline = time.monotonic() + 1.0
        while self.proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        self.kill()
        for fd in (self.to_host, self.from_host):
            try:
                os.close(fd)
            except OSError:
                pass
        self.out.join(1.0)
        self.err.join(1.0)
        shutil.rmtree(self.dir, ignore_errors=True)
