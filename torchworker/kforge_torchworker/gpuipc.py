"""Device buffers the judge owns and lends to a host process through CUDA IPC (the driver API, by ctypes).

On a CUDA worker the tensors of an evaluation do not cross the pipes: the judge allocates every input and
output buffer itself, each with its own cuMemAlloc (so an IPC mapping exposes that buffer and nothing else of
the judge's memory), fills the inputs on its device, and gives each host the IPC handles of its own buffers
only. A host maps them, runs its module on the inputs and copies its outputs into the output buffers; the judge
compares them on its device and checks the inputs against its private copies. The judge never maps memory a
host allocated, so nothing a host sends can make the judge read out of bounds.

Raw buffers are wrapped as uint8 tensors through __cuda_array_interface__ and viewed as the dtype (bf16 has no
array-interface type string)."""

import base64
import ctypes

import torch


class IpcError(Exception):
    pass


_lib = None


def driver():
    global _lib
    if _lib is None:
        try:
            _lib = ctypes.CDLL('libcuda.so.1')
        except OSError as e:
            raise IpcError('the CUDA driver library (libcuda.so.1) cannot be loaded: %s' % e) from None
        _lib.cuGetErrorString.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    return _lib


class Handle(ctypes.Structure):
    _fields_ = [('reserved', ctypes.c_char * 64)]


def check(status, what):
    if status != 0:
        text = ctypes.c_char_p()
        driver().cuGetErrorString(status, ctypes.byref(text))
        raise IpcError('%s failed: CUDA error %d (%s)' % (what, status,
                                                          text.value.decode() if text.value else '?'))


def ensure_context(device):
    """The device's primary context current on this thread (torch makes it so; this makes sure)."""
    torch.cuda.set_device(device)
    torch.empty(1, device=device)
    ctx = ctypes.c_void_p()
    check(driver().cuCtxGetCurrent(ctypes.byref(ctx)), 'cuCtxGetCurrent')
    if not ctx.value:
        raise IpcError('no CUDA context is current after torch initialised %s' % device)


class _Raw:
    """__cuda_array_interface__ of nbytes at ptr, as uint8: what torch.as_tensor wraps without a copy."""

    def __init__(self, ptr, nbytes, owner):
        self.owner = owner  # keeps the mapping alive as long as a tensor on it is
        self.__cuda_array_interface__ = {'shape': (nbytes,), 'typestr': '|u1', 'data': (ptr, False),
                                         'version': 2, 'strides': None}


def wrap(ptr, nbytes, dtype, shape, device, owner):
    if nbytes == 0:
        return torch.empty(shape, dtype=dtype, device=device)
    raw = torch.as_tensor(_Raw(ptr, nbytes, owner), device=device)
    return raw.view(dtype).reshape(shape)


class SharedBuffer:
    """One judge-owned allocation of a tensor's bytes, lendable to a host by its IPC handle."""

    def __init__(self, dtype, shape, device):
        self.dtype, self.shape, self.device = dtype, list(shape), device
        numel = 1
        for d in shape:
            numel *= int(d)
        self.nbytes = numel * torch.empty(0, dtype=dtype).element_size()
        self.ptr = ctypes.c_uint64(0)
        self.handle = None
        if self.nbytes:
            check(driver().cuMemAlloc_v2(ctypes.byref(self.ptr), ctypes.c_size_t(self.nbytes)),
                  'cuMemAlloc (%d bytes)' % self.nbytes)
            h = Handle()
            check(driver().cuIpcGetMemHandle(ctypes.byref(h), self.ptr), 'cuIpcGetMemHandle')
            self.handle = base64.b64encode(ctypes.string_at(ctypes.addressof(h), 64)).decode()  # all 64 bytes (a c_char array stops at a NUL)
        self.tensor = wrap(self.ptr.value, self.nbytes, dtype, shape, device, self)

    def describe(self, names):
        return {'handle': self.handle, 'nbytes': self.nbytes, 'dtype': names[self.dtype], 'shape': self.shape}

    def free(self):
        self.tensor = None
        if self.ptr.value:
            driver().cuMemFree_v2(self.ptr)
            self.ptr = ctypes.c_uint64(0)


class Mapping:
    """A host's view of one judge buffer (cuIpcOpenMemHandle), as a tensor of its dtype and shape."""

    LAZY_ENABLE_PEER_ACCESS = 1

    def __init__(self, entry, dtypes, device):
        dtype = dtypes.get(entry.get('dtype'))
        shape = entry.get('shape')
        nbytes = entry.get('nbytes')
        if dtype is None or not isinstance(shape, list) or not isinstance(nbytes, int) or nbytes < 0:
            raise IpcError('a buffer entry needs dtype, shape and nbytes')
        self.ptr = ctypes.c_uint64(0)
        if nbytes:
            raw = (bytes.fromhex(entry['handle_hex']) if 'handle_hex' in entry  # kforge-worker's (toHex)
                   else base64.b64decode(entry['handle']))
            if len(raw) != 64:
                raise IpcError('an IPC handle has 64 bytes, not %d' % len(raw))
            h = Handle()
            ctypes.memmove(ctypes.addressof(h), raw, 64)
            check(driver().cuIpcOpenMemHandle_v2(ctypes.byref(self.ptr), h, self.LAZY_ENABLE_PEER_ACCESS),
                  'cuIpcOpenMemHandle')
        self.tensor = wrap(self.ptr.value, nbytes, dtype, shape, device, self)
        if self.tensor.numel() * self.tensor.element_size() != nbytes:
            raise IpcError('a buffer of %d bytes cannot hold %s %s' % (nbytes, entry.get('dtype'), shape))
