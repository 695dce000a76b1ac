"""FLOPs of a forward, counted at torch's dispatcher, for kforge_torch_discover.py (torch 1.13 and 2.x alike).

Why a TorchDispatchMode and not forward hooks or torch.utils.flop_counter:
  - a dispatch mode sees every aten op the forward runs, however the problem calls it (nn modules, functional
    calls, Tensor methods, `@`, einsum, matmul): those composite calls decompose into mm/bmm/addmm/convolution
    before they reach the mode, so a handful of formulas cover them all. Forward hooks see modules only and
    would miss `torch.matmul(A, B)`, the commonest KernelBench level-1 problem;
  - it works on meta tensors, so nothing is computed and a 137-GFLOP GEMM is counted in milliseconds;
  - torch.utils.flop_counter exists only from torch 2.1 (Debian ships 1.13). The formulas below are its own
    (2*M*N*K per product, a convolution's bias and a GEMM's bias add not counted), so one count is written
    whichever torch imports the problem, and the built-in tasks compare on every torch.
A product with a diagonal matrix built by torch.diag (`torch.diag(A) @ B`) is counted as the one multiply per element
of the other operand that it is, not as the dense product torch runs: the count is the problem's work, and a
kernel that scales rows must not beat a compute floor made of zeros.
Ops outside the formulas (elementwise, reductions, norms, softmax) are not counted: their work is memory-bound and
the memory floor is the one that binds. An op that does heavy arithmetic this module cannot count (FFT, linear
algebra, RNN kernels) makes the count unknown, with its name, rather than a number that is too low.
"""
import math

from torch.utils._python_dispatch import TorchDispatchMode


def _prod(values):
    return math.prod(int(v) for v in values)


def _shape(t):
    return tuple(t.shape)


def _mm(a, b):
    m, k = _shape(a)[-2:]
    n = _shape(b)[-1]
    return 2 * m * n * k


def _bmm(a, b):
    batch, m, k = _shape(a)
    n = _shape(b)[-1]
    return 2 * batch * m * n * k


def _conv(x, w, out, transposed):
    """torch.utils.flop_counter's conv_flop_count: 2 * batch * the output positions (the input's for a transposed
    convolution) * every weight element. The weight is (out, in/groups, k...) or, transposed, (in, out/groups, k...),
    so groups come in through its shape."""
    spatial = _shape(x)[2:] if transposed else _shape(out)[2:]
    return 2 * _shape(x)[0] * _prod(spatial) * _prod(_shape(w))


def _attention(q, k, v):
    """Two batched products: Q K^T and the weights times V (as torch's sdpa_flop_count)."""
    *lead, s_q, d_q = _shape(q)
    s_k = _shape(k)[-2]
    d_v = _shape(v)[-1]
    bh = _prod(lead)
    return 2 * bh * s_q * s_k * d_q + 2 * bh * s_q * s_k * d_v


def _flops(name, args, out):
    """FLOPs of one aten op (its overload packet's name), or None when it is not one of the counted ones."""
    if name in ('mm', 'matmul'):
        return _mm(args[0], args[1])
    if name == 'addmm':
        return _mm(args[1], args[2])
    if name == 'bmm':
        return _bmm(args[0], args[1])
    if name == 'baddbmm':
        return _bmm(args[1], args[2])
    if name == 'mv':
        return 2 * _prod(_shape(args[0]))
    if name == 'addmv':
        return 2 * _prod(_shape(args[1]))
    if name in ('dot', 'vdot'):
        return 2 * _shape(args[0])[0]
    if name in ('convolution', '_convolution', 'convolution_overrideable', 'cudnn_convolution',
                'mkldnn_convolution', 'slow_conv2d_forward', 'thnn_conv2d', 'slow_conv3d_forward'):
        transposed = bool(args[6]) if name in ('convolution', '_convolution', 'convolution_overrideable') \
            and len(args) > 6 else False
        return _conv(args[0], args[1], out, transposed)
    if name in ('cudnn_convolution_transpose', 'slow_conv_transpose2d', 'slow_conv_transpose3d'):
        return _conv(args[0], args[1], out, True)
    if 'scaled_dot_product' in name and 'backward' not in name:
        return _attention(args[0], args[1], args[2])
    return None


# Ops that do arithmetic worth counting but have no formula here: their presence makes the count unknown.
HEAVY = ('fft', 'linalg_', 'cholesky', 'lu_', '_lu', 'qr', 'svd', 'eig', 'triangular_solve', 'lstm', 'gru',
         'rnn_', 'cdist', 'conv_tbc', 'tensordot', 'kron', 'addbmm', 'addr', 'ger', 'outer', 'inverse', 'det')


def _heavy(name):
    if 'check' in name:  # _linalg_check_errors: a check, no arithmetic
        return False
    return any(name.startswith(h) or name.startswith('_' + h) for h in HEAVY)


# Ops that read rows of their first argument picked by indices: an embedding table is read only where it is looked up.
GATHERS = ('embedding', 'index_select', 'embedding_bag', '_embedding_bag', '_embedding_bag_forward_only')


class FlopCount(TorchDispatchMode):
    """`with FlopCount() as c: model(*inputs)`, then c.total (an int) and c.uncounted (the names of heavy ops it
    could not count; when not empty the total is too low and must not be used)."""

    def __init__(self):
        super().__init__()
        self.total = 0
        self.by_op = {}
        self.uncounted = set()
        self.diagonal = {}  # id -> the 2-D outputs of aten.diag / diag_embed (kept alive while counting)
        self.gathered = {}  # id -> a tensor rows are gathered from (embedding, index_select), kept alive
        self.used = set()  # ids of the tensors any other op read

    def gathered_only(self):
        """The tensors only ever gathered from: how many of their bytes a forward reads depends on the indices."""
        return [t for i, t in self.gathered.items() if i not in self.used]

    def _diagonal_product(self, name, args):
        """The multiplies of mm/addmm/matmul with a diagonal operand: one per element of the other; else None."""
        pair = (args[1], args[2]) if name == 'addmm' else (args[0], args[1]) if name in ('mm', 'matmul') else None
        if pair is None:
            return None
        a, b = pair
        if id(a) in self.diagonal and self.diagonal[id(a)] is a:
            return _prod(_shape(b))
        if id(b) in self.diagonal and self.diagonal[id(b)] is b:
            return _prod(_shape(a))
        return None

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        packet = getattr(func, 'overloadpacket', func)
        name = getattr(packet, '__name__', str(packet)).split('.')[-1]
        for k, a in enumerate(list(args) + list((kwargs or {}).values())):
            if hasattr(a, 'dim'):
                if k == 0 and name in GATHERS:
                    self.gathered[id(a)] = a
                else:
                    self.used.add(id(a))
        if name in ('diag', 'diag_embed') and getattr(out, 'dim', lambda: 0)() == 2:
            self.diagonal[id(out)] = out
        try:
            flops = self._diagonal_product(name, args)
            if flops is not None:
                name += ' (diagonal)'
            else:
                flops = _flops(name, args, out)
        except (IndexError, TypeError, ValueError, AttributeError):
            flops = None
            self.uncounted.add(name)
        if flops is not None:
            self.total += flops
            self.by_op[name] = self.by_op.get(name, 0) + flops
        elif _heavy(name):
            self.uncounted.add(name)
        return out

    def get_total_flops(self):
        return self.total
