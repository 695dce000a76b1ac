"""The host zygote: one process per judge that imports torch once and forks every host from that state.

A host's boot was mostly `import torch` (and `torch.utils.cpp_extension`): 1.5-3 s on the H200 host, longer than
a warm evaluation, so the judge's spare hosts fell behind a client that evaluates back to back (an evaluation
then waited for its spare's boot). Forked from here, a host starts with torch imported and pays only its own
CUDA context. The zygote never touches CUDA: before each fork it checks that torch has not initialised CUDA here
and that it runs one thread (a process forked after CUDA's initialisation cannot use CUDA); a forked host checks
torch's own bad-fork mark again and ends with status 86 if it is set, and the judge, seeing a forked host that
cannot boot, spawns every host from then on (`docs/torch-worker.md`, "Processes").

What a forked host gets is what a spawned one got: a new session (its own process group, killed whole by the
judge), `PR_SET_PDEATHSIG` (the zygote has it too, so a judge's death ends both), stdin on /dev/null, its
stdout and stderr on the judge's capture pipes, its cwd the fresh directory the judge made, and no descriptor but
those and its two protocol pipes. The zygote holds no secret: it is a python3 that imported torch and this
package, nothing of the judge's state.

Protocol with the judge, over a SOCK_SEQPACKET socket pair (one JSON object per message):
  judge -> zygote  {"op": "fork", "id": N, "role", "device", "cwd"} with 4 descriptors (SCM_RIGHTS): the host's
                   request pipe (read end), its answer pipe (write end), its stdout and its stderr (write ends)
  zygote -> judge  {"ready": true, "pid": P} once torch is imported (or {"ready": false, "why": ...}: the judge
                   then spawns), {"id": N, "pid": P} or {"id": N, "error": ...}, and {"exited": P, "status": S} for
                   every host that ends (S as Popen.returncode: the exit code, or -signal)."""

import json
import os
import select
import signal
import socket
import sys
import time

from .hostproc import _die_with_parent

MAX_MESSAGE = 1 << 16


def cuda_mapped():
    """True when the NVIDIA driver library is mapped into this process: torch 2.x links it, so its import loads
    it (seen on the H100 host with torch 2.11). Loaded is not initialised: a process forked before CUDA's
    initialisation (cuInit, which torch runs lazily) can use CUDA, as a fork after it cannot."""
    try:
        with open('/proc/self/maps') as f:
            return any('libcuda.so' in line for line in f)
    except OSError:
        return False


def unsafe_to_fork():
    """Why forking a host from here would be unsafe, or ''."""
    import torch
    if torch.cuda.is_initialized() or torch.cuda._is_in_bad_fork():
        return 'CUDA is initialised in the zygote'
    threads = len(os.listdir('/proc/self/task'))
    if threads != 1:
        return 'the zygote runs %d threads' % threads
    return ''


def status_of(wait_status):
    if os.WIFSIGNALED(wait_status):
        return -os.WTERMSIG(wait_status)
    return os.WEXITSTATUS(wait_status) if os.WIFEXITED(wait_status) else -1


def send(sock, obj, fds=()):
    data = json.dumps(obj).encode()
    if fds:
        socket.send_fds(sock, [data], list(fds))
    else:
        sock.send(data)


def keep_only(keep):
    """Closes every descriptor from 3 up except those in keep."""
    for fd in sorted(int(x) for x in os.listdir('/proc/self/fd')):
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def err_fd(fds):
    return fds[3] if len(fds) == 4 else 2


def child(req, fds, zygote_pid):
    """In the forked host: its descriptors, session and directory set up as a spawned host's, then the host's
    main(). Never returns."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        _die_with_parent()  # setsid and PR_SET_PDEATHSIG, as for a spawned host
        if os.getppid() != zygote_pid:  # the zygote ended before the death signal was armed
            os._exit(1)
        import torch
        if torch.cuda._is_in_bad_fork():  # torch saw CUDA initialised before the fork: this host cannot use it
            os.write(err_fd(fds), b'kforge host: forked after CUDA was initialised in the zygote\n')
            os._exit(86)
        to_host_r, from_host_w, out_w, err_w = fds
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        keep_only({to_host_r, from_host_w})
        os.chdir(req['cwd'])
        sys.argv = ['kforge_torchworker.host', '--role', req['role'], '--device', req['device'],
                    '--fd-in', str(to_host_r), '--fd-out', str(from_host_w)]
        from . import host
        code = host.main() or 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:  # noqa: BLE001 - the host's own failure: its traceback on its stderr, then exit
        import traceback
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def serve(sock):
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    me = os.getpid()
    while True:
        ready, _, _ = select.select([sock, wake_r], [], [])
        if wake_r in ready:
            os.read(wake_r, 4096)
        while True:  # every host that ended: reaped and reported
            try:
                pid, wait_status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            send(sock, {'exited': pid, 'status': status_of(wait_status)})
        if sock not in ready:
            continue
        try:
            data, fds, _, _ = socket.recv_fds(sock, MAX_MESSAGE, 4)
        except InterruptedError:
            continue
        if not data:
            return 0  # the judge closed its end: its hosts end with this process (PR_SET_PDEATHSIG)
        req = {}
        try:
            req = json.loads(data)
            if not isinstance(req, dict):
                raise ValueError('a request is a JSON object')
            if len(fds) != 4 or req.get('op') != 'fork':
                raise ValueError('a fork request with 4 descriptors is needed (got %d)' % len(fds))
            why = unsafe_to_fork()
            if why:
                raise ValueError(why + ': forking is unsafe')
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                sock.close()
                os.close(wake_r)
                os.close(wake_w)
                child(req, fds, me)
            send(sock, {'id': req.get('id'), 'pid': pid})
        except (ValueError, OSError) as e:
            send(sock, {'id': req.get('id') if isinstance(req, dict) else None, 'error': str(e)})
        finally:
            for fd in fds:
                os.close(fd)


def main():
    fd = int(sys.argv[sys.argv.index('--fd') + 1])
    sock = socket.socket(fileno=fd)
    try:
        return boot_and_serve(sock)
    except (BrokenPipeError, ConnectionResetError):
        return 0  # the judge closed its end first (a worker that ended while torch was still importing here)


def boot_and_serve(sock):
    started = time.monotonic()
    try:
        import torch  # noqa: F401 - the import every host would pay, paid once here
        try:
            import torch.utils.cpp_extension  # noqa: F401 - what a candidate host imports while it boots
        except Exception:  # noqa: BLE001 - a host imports it itself, and reports a failure where it matters
            pass
        from . import buildcache, gpuipc, spec, wire  # noqa: F401 - the host's modules (none touches CUDA)
    except BaseException as e:  # noqa: BLE001 - the judge spawns its hosts instead
        send(sock, {'ready': False, 'why': 'import failed: %s: %s' % (type(e).__name__, e)})
        return 1
    why = unsafe_to_fork()
    if why:
        send(sock, {'ready': False, 'why': why})
        return 1
    send(sock, {'ready': True, 'pid': os.getpid(), 'import_s': round(time.monotonic() - started, 3),
                'driver_mapped': cuda_mapped()})
    return serve(sock)


if __name__ == '__main__':
    sys.exit(main())
