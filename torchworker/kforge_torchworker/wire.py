"""Messages between the judge and a host process, over the host's private pipes.

A message is an 8-byte length, a JSON header, then the raw bytes of each tensor the header lists
({"dtype", "shape", "nbytes"}). No pickle and no torch.load: what a candidate process sends is parsed as JSON
and copied into tensors of the dtypes the judge knows, so nothing it sends can run code in the judge."""

import fcntl
import json
import os
import select
import struct
import time

import torch

from .spec import DTYPES, NAMES

HEADER_LIMIT = 64 << 20
_write = os.write  # taken at import: a module patching os.write in a host does not reach the framing
_readv = os.readv
_F_SETPIPE_SZ = 1031  # Linux fcntl.h


def widen(fd, size=1 << 20):
    """Asks for a pipe buffer of `size` bytes (Linux; the default is 64 KiB, which costs a context switch per
    64 KiB of a tensor). Unprivileged processes get up to /proc/sys/fs/pipe-max-size (1 MiB by default); a
    refusal leaves the pipe as it was."""
    try:
        fcntl.fcntl(fd, _F_SETPIPE_SZ, size)
    except OSError:
        pass


class WireError(Exception):
    """The other side broke the framing or went away (EOF)."""


class Deadline(Exception):
    """No complete message before the deadline."""


def encode(header, tensors=()):
    """The message as a list of buffers (the header, then each tensor's bytes, not copied again)."""
    blobs, metas = [], []
    for t in tensors:
        t = t.detach().to('cpu').contiguous()
        if t.dtype not in NAMES:
            raise WireError('a tensor of dtype %s cannot be sent' % t.dtype)
        raw = memoryview(t.reshape(-1).view(torch.uint8).numpy()) if t.numel() else memoryview(b'')
        metas.append({'dtype': NAMES[t.dtype], 'shape': list(t.shape), 'nbytes': raw.nbytes})
        blobs.append(raw)
    head = json.dumps(dict(header, tensors=metas)).encode()
    return [struct.pack('<Q', len(head)) + head] + blobs


def send(fd, header, tensors=(), deadline=None):
    """Writes one message; on a non-blocking fd (the judge's side) it gives up at the deadline, so a host that
    stops reading cannot stall the judge."""
    for part in encode(header, tensors):
        data = memoryview(part).cast('B') if part else memoryview(b'')
        while data:
            try:
                n = _write(fd, data)
            except BlockingIOError:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise Deadline() from None
                select.select([], [fd], [], left)
                continue
            data = data[n:]


class Reader:
    """Reads whole messages from one pipe, with a deadline (time.monotonic) and a byte limit."""

    def __init__(self, fd, limit=None):
        self.fd = fd
        self.limit = limit
        self.buffer = bytearray()

    def _wait(self, deadline):
        """Until the pipe has bytes to read; Deadline past the deadline (None: the read blocks)."""
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Deadline()
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                raise Deadline()

    def _fill(self, count, deadline):
        while len(self.buffer) < count:
            self._wait(deadline)
            chunk = os.read(self.fd, min(1 << 22, max(count - len(self.buffer), 65536)))
            if not chunk:
                raise WireError('end of file')
            self.buffer += chunk

    def _take(self, count, deadline):
        self._fill(count, deadline)
        out = bytes(self.buffer[:count])
        del self.buffer[:count]
        return out

    def _take_into(self, count, deadline):
        """`count` bytes in a fresh bytearray: what is buffered already, then read straight into it."""
        out = bytearray(count)
        view = memoryview(out)
        have = min(count, len(self.buffer))
        view[:have] = self.buffer[:have]
        del self.buffer[:have]
        while have < count:
            self._wait(deadline)
            n = _readv(self.fd, [view[have:]])
            if not n:
                raise WireError('end of file')
            have += n
        return out

    def receive(self, deadline=None):
        (size,) = struct.unpack('<Q', self._take(8, deadline))
        if size > HEADER_LIMIT:
            raise WireError('a header of %d bytes' % size)
        try:
            header = json.loads(self._take(size, deadline))
        except ValueError as e:
            raise WireError('a header that is not JSON: %s' % e) from None
        if not isinstance(header, dict) or not isinstance(header.get('tensors', []), list):
            raise WireError('a header that is not an object with a tensor list')
        tensors, total = [], 0
        for meta in header.pop('tensors', []):
            if not isinstance(meta, dict) or meta.get('dtype') not in DTYPES:
                raise WireError('a tensor of an unknown dtype')
            shape = meta.get('shape')
            nbytes = meta.get('nbytes')
            if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape) \
                    or not isinstance(nbytes, int) or nbytes < 0:
                raise WireError('a tensor without a valid shape and size')
            dtype = DTYPES[meta['dtype']]
            numel = 1
            for d in shape:
                numel *= d
            if numel * torch.empty((), dtype=dtype).element_size() != nbytes:
                raise WireError('a tensor whose size does not match its shape')
            total += nbytes
            if self.limit is not None and total > self.limit:
                raise WireError('more than %d bytes of tensors in one message' % self.limit)
            if nbytes:
                raw = self._take_into(nbytes, deadline)
                t = torch.frombuffer(raw, dtype=torch.uint8).view(dtype).reshape(shape)
            else:
                t = torch.empty(shape, dtype=dtype)
            tensors.append(t)
        return header, tensors
