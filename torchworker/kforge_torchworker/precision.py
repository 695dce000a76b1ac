"""The reference in float64 for the judge's precision contract (core/runtime/worker/precisioncontract.h,
evaluatorprecision.cpp): the request

  float64  call {inputs, outputs} (one call of the batches, as batch names them), out {handle, bytes} (a judge
           buffer lent for this request only), outputs [{offset, shape}]
           -> ms

runs a float64 copy of the host's module (the judge's weights included) on the call's inputs cast to float64 and
writes its outputs, as float64, into the lent buffer. It compares nothing: the judge reads the buffer. Only a
reference host is asked; its module is copied once, so its own state stays in the task's dtypes."""
import copy
import ctypes
import time

import torch


def _float64(t):
    return t.to(torch.float64) if isinstance(t, torch.Tensor) and t.is_floating_point() else t


def float64_call(host, req, refusal):
    """`host`: the module host (modulehost.Host); `refusal(code, message)` builds its Refusal."""
    host.require_init()
    if host.signature is None:
        raise refusal('bad_request', 'no mapping (op map)')
    if not host.has_device:
        raise refusal('no_device', 'the host has no CUDA device')
    if host.slot != 'reference':
        raise refusal('bad_request', 'only the reference runs in float64')
    args, _ = host.bind(req.get('call', {}))
    out = req.get('out', {})
    nbytes = int(out.get('bytes', 0))
    from . import gpuipc
    mapping = gpuipc.Mapping({'dtype': 'u8', 'shape': [nbytes], 'nbytes': nbytes,
                              'handle_hex': out.get('handle', '')}, {'u8': torch.uint8}, host.device)
    t0 = time.perf_counter()
    try:
        with torch.no_grad(), torch.cuda.stream(host.stream):
            model64 = getattr(host, '_float64_model', None)
            if model64 is None:
                try:
                    model64 = copy.deepcopy(host.model).double()
                except Exception as e:  # noqa: BLE001 - the judge says why the contract is not available
                    raise refusal('unsupported', 'the module cannot be copied to float64: %s: %s'
                                  % (type(e).__name__, e)) from None
                host._float64_model = model64
            try:
                result = model64(*[_float64(a) for a in args])
            except Exception as e:  # noqa: BLE001
                raise refusal('unsupported', 'its forward failed in float64: %s: %s'
                              % (type(e).__name__, str(e).splitlines()[0] if str(e) else '')) from None
            results = list(result) if isinstance(result, (tuple, list)) else [result]
            specs = req.get('outputs', [])
            if len(results) != len(specs):
                raise refusal('bad_request', 'forward returned %d outputs, the judge names %d' % (len(results), len(specs)))
            for got, spec in zip(results, specs):
                shape = [int(d) for d in spec['shape']]
                offset = int(spec['offset'])
                numel = 1
                for d in shape:
                    numel *= d
                if not isinstance(got, torch.Tensor) or list(got.shape) != shape:
                    raise refusal('bad_request', 'a float64 output of another shape than the task declares')
                if offset < 0 or offset % 8 or offset + 8 * numel > nbytes:
                    raise refusal('bad_request', 'a float64 output outside the lent buffer')
                dst = mapping.tensor[offset:offset + 8 * numel].view(torch.float64).view(shape)
                dst.copy_(got.to(torch.float64))
    finally:
        torch.cuda.synchronize(host.device)  # nothing may write to the buffer after its handle is closed
        ptr = getattr(mapping, 'ptr', None)
        mapping.tensor = None
        if ptr is not None and ptr.value:
            gpuipc.driver().cuIpcCloseMemHandle(ctypes.c_uint64(ptr.value))
    return {'ok': True, 'ms': (time.perf_counter() - t0) * 1e3}
