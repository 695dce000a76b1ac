"""The judge's reading of a torch task: shapes from params, inputs made from seeds, outputs compared.

Everything here runs in the judge process only; nothing a candidate does can reach it."""

import ast
import math
import operator

import torch

DTYPES = {
    'f32': torch.float32, 'f16': torch.float16, 'bf16': torch.bfloat16, 'f64': torch.float64,
    'i32': torch.int32, 'i64': torch.int64, 'u8': torch.uint8, 'i8': torch.int8, 'i16': torch.int16,
    'bool': torch.bool,
}
NAMES = {v: k for k, v in DTYPES.items()}
FLOAT_NAMES = ('f32', 'f16', 'bf16', 'f64')
# docs/task-format.md "Dtypes": the defaults every KForge task uses; integers and bool compare exactly.
DEFAULT_TOLERANCE = {'f64': (1e-8, 1e-8), 'f32': (1e-4, 1e-4), 'f16': (1e-2, 1e-2), 'bf16': (2e-2, 2e-2)}
MASK64 = (1 << 64) - 1


class TaskError(Exception):
    """A task field the judge cannot use; the message names the field (bad_request)."""


def splitmix64(seed, stream):
    """Seed of a derived stream (trial, set), as core/runtime/worker/seeds.h derives them."""
    z = (seed + (stream + 1) * 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return (z ^ (z >> 31)) & ((1 << 63) - 1)


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Div: operator.truediv, ast.Mod: operator.mod, ast.Pow: operator.pow}


def evaluate_expression(text, params, field):
    """An integer or arithmetic over params ("N * 2", "(M + 1) // 2"); never Python's eval."""
    if isinstance(text, bool):
        raise TaskError('%s: a boolean is not a dimension' % field)
    if isinstance(text, (int, float)):
        return text

    def walk(node):
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in params:
                raise TaskError("%s: unknown identifier '%s' in '%s'" % (field, node.id, text))
            return params[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = walk(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        raise TaskError("%s: '%s' is not arithmetic over params" % (field, text))

    try:
        tree = ast.parse(str(text), mode='eval')
    except SyntaxError as e:
        raise TaskError("%s: '%s' does not parse: %s" % (field, text, e.msg)) from None
    return walk(tree)


def tensor_spec(entry, params, field):
    if not isinstance(entry, dict) or not isinstance(entry.get('name'), str):
        raise TaskError('%s: an object with a "name" is needed' % field)
    dtype = entry.get('dtype')
    if dtype not in DTYPES:
        raise TaskError('%s.dtype: %r is not one of %s' % (field, dtype, ', '.join(DTYPES)))
    shape = entry.get('shape')
    if not isinstance(shape, list):
        raise TaskError('%s.shape: a list is needed' % field)
    dims = []
    for i, d in enumerate(shape):
        value = evaluate_expression(d, params, '%s.shape[%d]' % (field, i))
        if value != int(value) or value < 0:
            raise TaskError('%s.shape[%d]: %r is not a size' % (field, i, value))
        dims.append(int(value))
    return {'name': entry['name'], 'dtype': dtype, 'shape': dims, 'init': entry.get('init')}


class TorchTask:
    """The fields of a "kind": "torch" task the judge reads (docs/torch-worker.md, "Task")."""

    def __init__(self, task):
        if not isinstance(task, dict):
            raise TaskError('task: an object is needed')
        if task.get('kind') != 'torch':
            raise TaskError('task.kind: "torch" is needed (got %r); CUDA tasks go to kforge-worker'
                            % task.get('kind'))
        self.name = str(task.get('name', 'task'))
        params = task.get('params', {})
        if not isinstance(params, dict) or not all(isinstance(v, (int, float)) for v in params.values()):
            raise TaskError('task.params: an object of numbers is needed')
        self.params = dict(params)
        args = task.get('inputs', task.get('forward_args'))
        if not isinstance(args, list):
            raise TaskError('task.inputs: a list of the forward arguments is needed')
        self.args = []
        for i, a in enumerate(args):
            field = 'task.inputs[%d]' % i
            if isinstance(a, dict) and 'dtype' in a:
                spec = tensor_spec(a, self.params, field)
                self.check_init(spec, field)
                self.args.append(spec)
            elif isinstance(a, dict) and 'value' in a:
                self.args.append({'name': str(a.get('name', 'arg%d' % i)), 'value': a['value']})
            else:
                raise TaskError('%s: a tensor (name, dtype, shape) or a value is needed' % field)
        outputs = task.get('outputs', [])
        if not isinstance(outputs, list):
            raise TaskError('task.outputs: a list is needed')
        self.outputs = [tensor_spec(o, self.params, 'task.outputs[%d]' % i) for i, o in enumerate(outputs)]
        self.tolerance = dict((k, v) for k, v in DEFAULT_TOLERANCE.items())
        tol = task.get('tolerance', {})
        if not isinstance(tol, dict):
            raise TaskError('task.tolerance: an object is needed')
        for dtype, t in tol.items():
            if not isinstance(t, dict):
                raise TaskError('task.tolerance.%s: an object with atol and rtol is needed' % dtype)
            base = DEFAULT_TOLERANCE.get(dtype, (0.0, 0.0))
            self.tolerance[dtype] = (float(t.get('atol', base[0])), float(t.get('rtol', base[1])))
        init_inputs = task.get('init_inputs')
        self.init_inputs = init_inputs if isinstance(init_inputs, list) else None
        timeout = task.get('timeout_s', 60)
        if not isinstance(timeout, (int, float)) or timeout <= 0:
            raise TaskError('task.timeout_s: a number > 0 is needed')
        self.timeout_s = float(timeout)
        self.declared_degenerate = bool(task.get('degenerate', False))

    @staticmethod
    def check_init(spec, field):
        init = spec['init']
        dist = (init or {}).get('dist')
        if init is not None and not isinstance(init, dict):
            raise TaskError('%s.init: an object is needed' % field)
        if spec['dtype'] in FLOAT_NAMES:
            if dist not in (None, 'normal', 'uniform', 'constant', 'integers'):
                raise TaskError('%s.init.dist: %r is not normal, uniform, integers or constant' % (field, dist))
        elif spec['dtype'] != 'bool':
            if dist not in ('integers', 'constant'):
                raise TaskError('%s.init: an integer input needs its range declared, {"dist": "integers", '
                                '"low": a, "high": b} (got %r)' % (field, init))
            if dist == 'integers' and not ('low' in init and 'high' in init and init['high'] > init['low']):
                raise TaskError('%s.init: "low" < "high" are both needed for integers' % field)

    def make_args(self, seed, device='cpu'):
        """The forward arguments for one input set: tensors drawn with the judge's own generator, in their
        real dtypes (integers from the declared range, bools 0/1), scalars as declared. On a CUDA `device` the
        judge draws there, with the device's generator (the same seed gives the same inputs on that device)."""
        out = []
        for index, a in enumerate(self.args):
            if 'value' in a:
                out.append(a['value'])
                continue
            gen = torch.Generator(device=device)
            gen.manual_seed(splitmix64(seed, index))
            out.append(draw(a, gen, device))
        return out


def draw(spec, gen, device='cpu'):
    dtype, shape, init = DTYPES[spec['dtype']], spec['shape'], spec['init'] or {}
    dist = init.get('dist', 'normal')
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=gen, dtype=torch.int64, device=device).to(torch.bool)
    if dist == 'constant':
        return torch.full(shape, init.get('value', 0), dtype=dtype, device=device)
    if dist == 'integers':
        t = torch.randint(int(init['low']), int(init['high']), shape, generator=gen, dtype=torch.int64,
                          device=device)
        return t.to(dtype)
    if dist == 'uniform':
        low, high = float(init.get('low', 0.0)), float(init.get('high', 1.0))
        t = torch.rand(shape, generator=gen, dtype=torch.float64, device=device) * (high - low) + low
        return t.to(dtype)
    mean, std = float(init.get('mean', 0.0)), float(init.get('std', 1.0))
    return (torch.randn(shape, generator=gen, dtype=torch.float64, device=device) * std + mean).to(dtype)


def scalar(x):
    x = float(x)
    if math.isnan(x):
        return 'nan'
    if math.isinf(x):
        return 'inf' if x > 0 else '-inf'
    return x


def compare(name, got, expected, tolerance, device=None):
    """The judge's own comparison (docs/task-format.md "Tolerance"): |got - expected| <= atol + rtol*|expected|
    in double; NaN matches NaN, an infinity the same infinity; integers and bool exactly. With a CUDA `device`
    the judge compares there (in its own process and context: a 64 MiB output in milliseconds instead of about a
    second of CPU), and on the CPU when the device cannot hold the copies."""
    if device is not None and isinstance(got, torch.Tensor) and isinstance(expected, torch.Tensor):
        try:
            return compare(name, got.to(device), expected.to(device), tolerance)
        except RuntimeError:  # out of device memory (a candidate hogging it): the same comparison on the CPU
            pass
    report = {'name': name, 'mismatches': 0, 'max_abs_err': 0.0, 'max_rel_err': 0.0, 'nan_count': 0,
              'inf_count': 0, 'first': None, 'problem': ''}
    if not isinstance(got, torch.Tensor):
        report['problem'] = 'output %s is a %s, not a tensor' % (name, type(got).__name__)
        return report
    if got.dtype != expected.dtype:
        report['problem'] = 'output %s has dtype %s, the reference %s' % (
            name, NAMES.get(got.dtype, str(got.dtype)), NAMES.get(expected.dtype, str(expected.dtype)))
        return report
    if tuple(got.shape) != tuple(expected.shape):
        report['problem'] = 'output %s has shape %s, the reference %s' % (name, list(got.shape),
                                                                        list(expected.shape))
        return report
    dname = NAMES.get(expected.dtype, '')
    if dname in FLOAT_NAMES:
        g, e = got.double().reshape(-1), expected.double().reshape(-1)
        atol, rtol = tolerance.get(dname, (0.0, 0.0))
        nan_g = torch.isnan(g)
        finite = torch.isfinite(g) & torch.isfinite(e)
        # errors only over pairs of finite numbers (0 elsewhere: the maxima are over those pairs, 0 if none)
        zero = g.new_zeros(())
        diff = torch.where(finite, (g - e).abs(), zero)
        ok_finite = finite & (diff <= atol + rtol * e.abs())
        bad = ~((nan_g & torch.isnan(e)) | (torch.isinf(e) & (g == e)) | ok_finite)
        nz = finite & (e != 0)
        rel = torch.where(nz, diff / e.abs(), zero)  # the division's inf/NaN where e == 0 are masked out
        if g.numel():  # every figure in one transfer: one synchronisation per output instead of six
            figures = torch.stack([nan_g.sum().double(), torch.isinf(g).sum().double(), diff.max(), rel.max(),
                                   bad.sum().double()]).tolist()
        else:
            figures = [0.0] * 5
        report['nan_count'], report['inf_count'] = int(figures[0]), int(figures[1])
        report['max_abs_err'], report['max_rel_err'] = float(figures[2]), float(figures[3])
        count = int(figures[4])
    else:
        g, e = got.reshape(-1).to(torch.int64), expected.reshape(-1).to(torch.int64)
        bad = g != e
        if bool(bad.any()):
            d = (g[bad] - e[bad]).abs().double()
            report['max_abs_err'] = float(d.max())
        count = int(bad.sum())
    report['mismatches'] = count
    if count:
        index = int(bad.nonzero()[0][0])
        coords, rest = [], index
        for dim in reversed(expected.shape):
            coords.insert(0, rest % dim)
            rest //= dim
        report['first'] = {'output': name, 'index': index, 'coords': coords, 'expected': scalar(e[index]),
                           'got': scalar(g[index])}
    return report


def identical(a, b):
    """Bitwise equality (NaN payloads included): for the mutation and degenerate checks."""
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
        return a == b
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    return torch.equal(a.reshape(-1).view(torch.uint8), b.reshape(-1).view(torch.uint8)) if a.numel() else True
