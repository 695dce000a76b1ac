"""The judge's handle on one host process: started with private pipes, a fresh temp dir as cwd and a process group
of its own; its stdout and stderr captured with a cap; killed with its group when the evaluation ends."""

import ctypes
import json
import os
import select
import shutil
import signal
import socket
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
    """A host's stdout or stderr, read as it comes, up to OUTPUT_CAP. text() first takes whatever the pipe holds
    (the host flushes both before each answer), so what a host printed before its answer is there whether or not
    this thread has run since: the judge's reading does not depend on the scheduler."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream, self.data, self.truncated, self.ended = stream, bytearray(), False, False
        self.lock = threading.Lock()
        os.set_blocking(stream.fileno(), False)

    def run(self):
        while not self.ended:
            try:
                select.select([self.stream], [], [])
            except (OSError, ValueError):  # closed under us: the host is gone
                return
            self.drain()

    def drain(self):
        with self.lock:
            while not self.ended:
                try:
                    chunk = os.read(self.stream.fileno(), 65536)
                except BlockingIOError:
                    return
                except (OSError, ValueError):
                    self.ended = True
                    return
                if not chunk:
                    self.ended = True
                    return
                room = OUTPUT_CAP - len(self.data)
                if len(chunk) > room:
                    self.truncated = True
                self.data += chunk[:max(0, room)]

    def text(self):
        self.drain()
        with self.lock:
            return self.data.decode('utf-8', 'replace')


def host_env():
    """The environment of a host (and of the zygote its forked hosts come from): this package importable."""
    env = dict(os.environ)
    env['PYTHONPATH'] = PACKAGE_ROOT + (os.pathsep + env['PYTHONPATH'] if env.get('PYTHONPATH') else '')
    env['PYTHONDONTWRITEBYTECODE'] = '1'
    return env


class Zygote:
    """The judge's handle on its zygote (zygote.py): a process that imported torch once and forks hosts from that
    state on request. Their exits come back on the same socket. fork() answers None whenever the zygote cannot
    serve (still importing torch, refused, ended): the caller then spawns the host as before."""

    REPLY_WAIT_S = 10.0

    def __init__(self):
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock = mine
        self.proc = subprocess.Popen(
            [sys.executable, '-m', 'kforge_torchworker.zygote', '--fd', str(theirs.fileno())],
            env=host_env(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, pass_fds=(theirs.fileno(),),
            preexec_fn=_die_with_parent)
        theirs.close()
        self.cond = threading.Condition()
        self.ready = None  # None while booting, then True, or False with why
        self.why = ''
        self.import_s = None
        self.replies, self.exits, self.pids, self.next_id = {}, {}, set(), 0
        threading.Thread(target=self._read, name='kforge-zygote', daemon=True).start()

    def _read(self):
        while True:
            try:
                data = self.sock.recv(1 << 16)
                msg = json.loads(data) if data else None
            except (OSError, ValueError):
                msg = None
            if not isinstance(msg, dict):
                break
            with self.cond:
                if 'ready' in msg:
                    self.ready, self.why, self.import_s = bool(msg['ready']), str(msg.get('why', '')), \
                        msg.get('import_s')
                elif 'exited' in msg:
                    self.exits[msg['exited']] = msg.get('status', -1)
                elif 'id' in msg:
                    self.replies[msg['id']] = msg
                self.cond.notify_all()
        with self.cond:  # the zygote ended: its hosts were killed with it (PR_SET_PDEATHSIG)
            self.ready, self.why = False, self.why or 'the zygote ended'
            for pid in self.pids:
                self.exits.setdefault(pid, -signal.SIGKILL)
            self.cond.notify_all()

    def fork(self, role, device, cwd, fds):
        """The pid of a host forked with fds (its request pipe's read end, answer pipe's write end, stdout and
        stderr), or None."""
        with self.cond:
            if not self.ready:  # still importing torch (a spawned host takes as long), or unusable
                return None
            self.next_id += 1
            rid = self.next_id
        try:
            socket.send_fds(self.sock, [json.dumps({'op': 'fork', 'id': rid, 'role': role, 'device': device,
                                                    'cwd': cwd}).encode()], list(fds))
        except OSError:
            return None
        with self.cond:
            self.cond.wait_for(lambda: rid in self.replies or self.ready is False, self.REPLY_WAIT_S)
            reply = self.replies.pop(rid, None)
            if reply is None or not isinstance(reply.get('pid'), int):
                if reply is not None:
                    self.why = str(reply.get('error', ''))
                return None
            self.pids.add(reply['pid'])
            return reply['pid']

    def disable(self, why):
        """No more forks (the judge spawns from now on)."""
        with self.cond:
            self.ready, self.why = False, why

    def wait_ready(self, timeout):
        """True once the zygote can fork (for tests and the first evaluation's hosts)."""
        with self.cond:
            self.cond.wait_for(lambda: self.ready is not None, timeout)
            return bool(self.ready)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.sock.close()


class Forked:
    """A host the zygote forked: what HostProcess uses of Popen (pid, poll, wait, returncode)."""

    def __init__(self, zygote, pid):
        self.zygote, self.pid, self.returncode = zygote, pid, None

    def _collect(self):  # under the zygote's lock: the exit status, once reported, moves here
        z = self.zygote
        if self.returncode is None and self.pid in z.exits:
            self.returncode = z.exits.pop(self.pid)
            z.pids.discard(self.pid)
        return self.returncode is not None

    def poll(self):
        with self.zygote.cond:
            self._collect()
        return self.returncode

    def wait(self, timeout=None):
        with self.zygote.cond:
            if not self.zygote.cond.wait_for(self._collect, timeout):
                raise subprocess.TimeoutExpired('kforge host %d' % self.pid, timeout)
        return self.returncode


class HostProcess:
    """One host process. Started with a path, or as a spare (path None) that boots (imports torch, makes its
    CUDA context) while the judge waits for the next evaluation, and is given its module by assign(); a spare
    serves one evaluation only, as a host started for it would. With a zygote the host is forked from it (torch
    already imported: `forked`), else spawned."""

    def __init__(self, role, path, device, zygote=None):
        self.role, self.device = role, device
        self.spare = path is None  # booted before its evaluation
        self.booted = False  # known to have booted (wait_booted)
        self.assign(path)
        self.dir = tempfile.mkdtemp(prefix='kforge-torch-%s-' % role)
        to_host_r, self.to_host = os.pipe()
        self.from_host, from_host_w = os.pipe()
        wire.widen(self.to_host)  # 1 MiB instead of 64 KiB: tensors cross in fewer context switches
        wire.widen(from_host_w)
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        pid = zygote.fork(role, device, self.dir, (to_host_r, from_host_w, out_w, err_w)) if zygote else None
        self.forked = pid is not None
        if self.forked:
            self.proc = Forked(zygote, pid)
        else:
            self.proc = subprocess.Popen(
                [sys.executable, '-m', 'kforge_torchworker.host', '--role', role, '--device', device,
                 '--fd-in', str(to_host_r), '--fd-out', str(from_host_w)],
                cwd=self.dir, env=host_env(), stdin=subprocess.DEVNULL, stdout=out_w, stderr=err_w,
                pass_fds=(to_host_r, from_host_w), preexec_fn=_die_with_parent)
        for fd in (to_host_r, from_host_w, out_w, err_w):
            os.close(fd)
        os.set_blocking(self.to_host, False)
        self.reader = wire.Reader(self.from_host, limit=(256 << 20) if role == 'candidate' else None)
        self.out = Capture(os.fdopen(out_r, 'rb', buffering=0))
        self.err = Capture(os.fdopen(err_r, 'rb', buffering=0))
        self.out.start()
        self.err.start()

    def wait_booted(self, deadline):
        """Returns once the host has booted (it answers a ping only then); HostFailure if it cannot."""
        if not self.booted:
            self.request({'op': 'ping'}, [], deadline, 'waiting for a spare host to boot')
            self.booted = True

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
        for capture in (self.out, self.err):
            capture.join(1.0)
            if not capture.is_alive():
                capture.stream.close()
        shutil.rmtree(self.dir, ignore_errors=True)
