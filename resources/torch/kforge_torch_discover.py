#!/usr/bin/env python3
"""Discover a KernelBench-format PyTorch problem and print its KForge task.json on stdout.

    python3 kforge_torch_discover.py PROBLEM.py [--real-bytes N]

PROBLEM.py defines `class Model(nn.Module)`, module-level size constants, `get_inputs()` (the forward
arguments) and `get_init_inputs()` (the constructor arguments; optional, [] when absent).

On success stdout holds one JSON object, the task ("kind": "torch"); on a problem it holds
{"error": {"file", "step", "cause"}} and the exit status is 1. Nothing big is materialised:
  - shapes come from meta tensors: torch's factory functions (rand, randn, randint, zeros, ones, empty, full, ...)
    are patched to build on the meta device while the module is imported, the Model constructed and get_inputs()
    called, then the forward runs on meta tensors too;
  - a shape dimension is written as an expression over the size constants (the task's params) when re-running
    on meta with one constant changed at a time (to 1/2 and 1/4 of it) shows which constant it follows;
  - where the meta forward fails, the outputs come from real CPU runs with the size constants scaled down;
  - FLOPs: counted at torch's dispatcher on the meta forward (kforge_torch_flops.py: matmul, linear, bmm, einsum,
    convolutions; the same count on torch 1.13 and 2.x), written as a product of params when the counts at the
    changed constants fit one; null with the reason when the count is unknown;
  - degenerate: the Model is run twice for real (at full size when it is small, else with the constants scaled
    down) on inputs from two seeds; equal outputs mean the output does not depend on the inputs.
Works with torch 1.13 and torch 2.x.
"""
import ast
import importlib.util
import inspect
import json
import math
import os
import sys
import time

sys.dont_write_bytecode = True
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kforge_torch_fit import bytes_formula, fit_dim, fit_flops  # noqa: E402 - beside this script
from kforge_torch_flops import FlopCount  # noqa: E402

STEP_NAMES = ('python', 'import', 'lookup', 'get_init_inputs', 'construct', 'get_inputs', 'forward', 'output', 'repeat')
LOW_PRECISION_CPU = "not implemented for '"
SMALL_DIM = 4  # constants below this are never changed (kernel sizes, dims, flags)


class Problem(Exception):
    def __init__(self, step, cause):
        super().__init__(cause)
        self.step = step
        self.cause = cause


def describe(exc):
    """'RuntimeError: mat1 and mat2 shapes cannot be multiplied (at problem.py line 12)'."""
    text = '%s: %s' % (type(exc).__name__, str(exc).strip().splitlines()[0] if str(exc).strip() else '')
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == PROBLEM_PATH]
    if frames:
        text += ' (at %s line %d)' % (os.path.basename(PROBLEM_PATH), frames[-1].lineno)
    return text


PROBLEM_PATH = ''

try:
    import torch
except BaseException as e:  # noqa: BLE001 - any failure to import torch is reported, never raised
    print(json.dumps({'error': {'file': sys.argv[1] if len(sys.argv) > 1 else '', 'step': 'python',
                                'cause': 'cannot import torch: %s' % e}}))
    sys.exit(1)

DTYPES = {
    torch.float32: 'f32', torch.float16: 'f16', torch.bfloat16: 'bf16', torch.float64: 'f64',
    torch.int32: 'i32', torch.int64: 'i64', torch.uint8: 'u8', torch.int8: 'i8', torch.int16: 'i16',
    torch.bool: 'bool', torch.complex64: 'c64', torch.complex128: 'c128',
}
TOLERANCE = {'f64': (1e-8, 1e-8), 'f32': (1e-4, 1e-4), 'f16': (1e-2, 1e-2), 'bf16': (2e-2, 2e-2)}


def tolerance_how(tolerance):
    """Where the task's tolerance came from, and KernelBench's for comparison."""
    if not tolerance:
        return 'no floating-point output: compared exactly'
    parts = ['%s atol %g, rtol %g' % (d, t['atol'], t['rtol']) for d, t in tolerance.items()]
    return ("the import's default per output dtype: %s (KernelBench checks every dtype with atol = rtol = 1e-2: "
            'set "tolerance" in task.json to judge as it does)' % '; '.join(parts))


def dtype_name(dt):
    return DTYPES.get(dt, str(dt).replace('torch.', ''))


# ---- meta patching -------------------------------------------------------------------------------------------

FACTORIES = ('rand', 'randn', 'randint', 'zeros', 'ones', 'empty', 'full', 'rand_like', 'randn_like',
             'randint_like', 'zeros_like', 'ones_like', 'empty_like', 'full_like', 'randperm', 'arange',
             'linspace', 'eye', 'normal')
ORIGINAL = {name: getattr(torch, name) for name in FACTORIES if hasattr(torch, name)}
INIT_OF = {}  # id(tensor) -> the init the factory that made it implies (for the task's inputs)


def init_for(name, args, kwargs):
    if name in ('rand', 'rand_like'):
        return {'dist': 'uniform', 'low': 0, 'high': 1}
    if name in ('randn', 'randn_like'):
        return {'dist': 'normal', 'mean': 0, 'std': 1}
    if name in ('zeros', 'zeros_like'):
        return {'dist': 'constant', 'value': 0}
    if name in ('ones', 'ones_like'):
        return {'dist': 'constant', 'value': 1}
    if name == 'randint':
        ints = [a for a in args if isinstance(a, int)]
        if 'low' in kwargs or 'high' in kwargs:
            return {'dist': 'integers', 'low': kwargs.get('low', 0), 'high': kwargs.get('high')}
        if len(ints) >= 2:
            return {'dist': 'integers', 'low': ints[0], 'high': ints[1]}
        if len(ints) == 1:
            return {'dist': 'integers', 'low': 0, 'high': ints[0]}
    if name in ('full', 'full_like'):
        value = kwargs.get('fill_value', args[1] if len(args) > 1 else None)
        if isinstance(value, (int, float)):
            return {'dist': 'constant', 'value': value}
    return None


def on_cuda(device):
    return device is not None and str(device).startswith('cuda')


def patched_factory(name, meta):
    """The factory building on meta (meta) or the CPU (real runs) where the problem gives no device or CUDA."""
    original = ORIGINAL[name]

    def build(*args, **kwargs):
        device = kwargs.get('device')
        if on_cuda(device):
            USED_CUDA.append(name)
        if device is None or on_cuda(device):
            kwargs['device'] = 'meta' if meta else 'cpu'
        t = original(*args, **kwargs)
        init = init_for(name, args, kwargs)
        if init is not None and isinstance(t, torch.Tensor):
            INIT_OF[id(t)] = (t, init)
        return t
    return build


USED_CUDA = []  # factories and .cuda() calls that asked for CUDA: here they build on meta or the CPU
ORIGINAL_CUDA = (torch.Tensor.cuda, torch.nn.Module.cuda)


def stay(self, *args, **kwargs):
    USED_CUDA.append('cuda()')
    return self


class MetaPatch:
    """Factories build on meta (meta=True) or the CPU; .cuda() of a tensor or a module is the identity."""

    def __init__(self, meta=True):
        self.meta = meta

    def __enter__(self):
        for name in ORIGINAL:
            setattr(torch, name, patched_factory(name, self.meta))
        torch.Tensor.cuda = stay
        torch.nn.Module.cuda = stay
        return self

    def __exit__(self, *exc):
        for name, fn in ORIGINAL.items():
            setattr(torch, name, fn)
        torch.Tensor.cuda, torch.nn.Module.cuda = ORIGINAL_CUDA
        return False


# ---- one run of the problem -----------------------------------------------------------------------------------

def load_module(path):
    spec = importlib.util.spec_from_file_location('kforge_problem', path)
    module = importlib.util.module_from_spec(spec)
    try:
        with MetaPatch():
            spec.loader.exec_module(module)
    except BaseException as e:  # noqa: BLE001 - SystemExit and KeyboardInterrupt of a problem file too
        raise Problem('import', describe(e)) from None
    model = getattr(module, 'Model', None)
    if not (inspect.isclass(model) and issubclass(model, torch.nn.Module)):
        raise Problem('lookup', 'no class Model(nn.Module) in the file')
    if not callable(getattr(module, 'get_inputs', None)):
        raise Problem('lookup', 'no function get_inputs() in the file')
    return module


def with_constants(module, constants, meta):
    """The problem module as it is when its file gives these values to its size constants: the file executed
    again with each top-level `NAME = ...` of a changed constant assigning the new value, so that what the file
    computes from them (`bias_shape = (out_features,)`, `input_shape = (dim,)`) follows. The module itself when
    nothing changed; a problem whose file cannot be read again keeps the module with the constants set on it."""
    changed = {k: v for k, v in constants.items() if getattr(module, k, None) != v or type(getattr(module, k, None))
               is not type(v)}
    if not changed:
        return module
    fresh = None
    try:
        with open(PROBLEM_PATH, encoding='utf-8') as f:
            tree = ast.parse(f.read(), PROBLEM_PATH)
    except (OSError, SyntaxError, ValueError):
        tree = None
    if tree is not None:
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else []
            if len(targets) == 1 and isinstance(targets[0], ast.Name) and targets[0].id in changed:
                node.value = ast.copy_location(ast.Constant(changed[targets[0].id]), node.value)
        fresh = type(module)(module.__name__)
        fresh.__file__ = PROBLEM_PATH
        try:
            with MetaPatch(meta):
                exec(compile(tree, PROBLEM_PATH, 'exec'), vars(fresh))  # noqa: S102 - the problem file itself
        except BaseException as e:  # noqa: BLE001
            raise Problem('import', describe(e)) from None
        if not (inspect.isclass(getattr(fresh, 'Model', None)) and callable(getattr(fresh, 'get_inputs', None))):
            fresh = None
    if fresh is None:
        fresh = module
    for key, value in constants.items():
        setattr(fresh, key, value)
    return fresh


def size_constants(module):
    """Module-level int and float constants, in file order: the task's params."""
    out = {}
    for key, value in vars(module).items():
        if key.startswith('_') or key in ('min', 'max', 'ceil', 'floor') or isinstance(value, bool):
            continue
        if isinstance(value, (int, float)) and math.isfinite(value):
            out[key] = value
    return out


def call(module, step, fn_name, default=None):
    fn = getattr(module, fn_name, None)
    if fn is None:
        return default
    try:
        value = fn()
    except BaseException as e:  # noqa: BLE001
        raise Problem(step, describe(e)) from None
    if not isinstance(value, (list, tuple)):
        raise Problem(step, '%s() returned a %s, not a list' % (fn_name, type(value).__name__))
    return list(value)


def outputs_of(result):
    if isinstance(result, torch.Tensor):
        return [result]
    if isinstance(result, (list, tuple)) and result and all(isinstance(r, torch.Tensor) for r in result):
        return list(result)
    raise Problem('output', 'forward returned a %s, not a tensor (or a tuple of tensors)' % type(result).__name__)


def run(module, constants, meta, seeds=(1,), flops=False):
    """Set the constants, build the Model and call forward once per seed. Returns a dict of what it saw."""
    module = with_constants(module, constants, meta)
    INIT_OF.clear()
    seen = {}
    patch = MetaPatch(meta)
    patch.__enter__()
    try:
        torch.manual_seed(0)
        init_args = call(module, 'get_init_inputs', 'get_init_inputs', [])
        try:
            model = module.Model(*init_args)
        except BaseException as e:  # noqa: BLE001
            raise Problem('construct', describe(e)) from None
        seen['init_args'] = init_args
        seen['parameters'] = [(n, p) for n, p in model.named_parameters()]
        seen['buffers'] = [(n, b) for n, b in model.named_buffers()]
        seen['runs'] = []
        for seed in seeds:
            torch.manual_seed(seed)
            inputs = call(module, 'get_inputs', 'get_inputs')
            if seen.get('upcast'):
                inputs = [x.float() if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in inputs]
            inits = [INIT_OF[id(x)][1] if id(x) in INIT_OF and INIT_OF[id(x)][0] is x else None for x in inputs]
            counter = FlopCount() if flops else None
            try:
                with torch.no_grad():
                    if counter is not None:
                        with counter:
                            result = model(*inputs)
                    else:
                        result = model(*inputs)
            except BaseException as e:  # noqa: BLE001
                if not meta and LOW_PRECISION_CPU in str(e) and not seen.get('upcast'):
                    # CPU torch lacks some half kernels (GELU in 1.13): the real runs then go in float32.
                    seen['upcast'] = True
                    model = model.float()
                    inputs = [x.float() if isinstance(x, torch.Tensor) and x.is_floating_point() else x
                              for x in inputs]
                    try:
                        with torch.no_grad():
                            result = model(*inputs)
                    except BaseException as e2:  # noqa: BLE001
                        raise Problem('forward', describe(e2)) from None
                    seen['runs'].append({'inputs': inputs, 'inits': inits, 'outputs': outputs_of(result),
                                         'flops': None})
                    continue
                if not meta:
                    raise Problem('forward', describe(e)) from None
                # Not every op has a meta kernel: the outputs then come from real runs at small sizes.
                seen['forward_error'] = describe(e)
                seen['runs'].append({'inputs': inputs, 'inits': inits, 'outputs': None, 'flops': None})
                continue
            outs = outputs_of(result)
            gathered = {id(t) for t in counter.gathered_only()} if counter is not None else set()
            seen['runs'].append({'inputs': inputs, 'inits': inits, 'outputs': outs,
                                 'gathered': [k for k, t in [(('input', i), x) for i, x in enumerate(inputs)]
                                              + [(('parameter', n), t) for n, t in seen['parameters']]
                                              + [(('buffer', n), t) for n, t in seen['buffers']] if id(t) in gathered],
                                 'flops': counter.get_total_flops() if counter is not None else None,
                                 'flops_by_op': dict(counter.by_op) if counter is not None else None,
                                 'uncounted': sorted(counter.uncounted) if counter is not None else []})
    finally:
        patch.__exit__(None, None, None)
    return seen


def tensor_bytes(seen):
    total = 0
    for _, t in seen['parameters'] + seen['buffers']:
        total += t.numel() * t.element_size()
    for x in seen['runs'][0]['inputs'] + (seen['runs'][0]['outputs'] or []):
        if isinstance(x, torch.Tensor):
            total += x.numel() * x.element_size()
    return total


def tensors_of(seen):
    """[(key, tensor)] of everything with a shape: inputs, parameters, buffers, outputs."""
    run0 = seen['runs'][0]
    out = [(('input', i), x) for i, x in enumerate(run0['inputs']) if isinstance(x, torch.Tensor)]
    out += [(('parameter', n), t) for n, t in seen['parameters']]
    out += [(('buffer', n), t) for n, t in seen['buffers']]
    out += [(('output', i), t) for i, t in enumerate(run0.get('outputs') or [])]
    return out


def perturbations(base):
    for p, v in base.items():
        if isinstance(v, int) and v >= SMALL_DIM:
            for w in sorted({v // 2, v // 4} - {v, 0}, reverse=True):
                yield p, w


def derive_shapes(module, base, meta, keys, notes, seeds=(1,)):
    """Runs at base and with one param changed at a time; {key: [dim or expression]} for the keys wanted."""
    seen0 = run(module, base, meta, seeds)
    shapes0 = {k: list(t.shape) for k, t in tensors_of(seen0) if k[0] in keys}
    observations = {k: [[] for _ in s] for k, s in shapes0.items()}
    checked = []
    for p, w in perturbations(base):
        changed = dict(base)
        changed[p] = w
        try:
            seen = run(module, changed, meta, seeds)
        except Problem:
            continue
        shapes = {k: list(t.shape) for k, t in tensors_of(seen) if k[0] in keys}
        if set(shapes) != set(shapes0) or any(len(shapes[k]) != len(shapes0[k]) for k in shapes0):
            continue
        checked.append(p)
        for k, dims in shapes.items():
            for i, d in enumerate(dims):
                observations[k][i].append((p, w, d))
    result = {}
    for k, dims in shapes0.items():
        result[k] = []
        for i, d in enumerate(dims):
            e = fit_dim(d, base, observations[k][i])
            if e is None:
                notes.append('%s %s dimension %d follows several params in no simple way: written as %d'
                              % (k[0], k[1], i, d))
                e = d
            result[k].append(e)
    return seen0, result, sorted(set(checked))


def evaluate(expr, consts):
    if isinstance(expr, int):
        return expr
    return int(eval(expr, {'floor': math.floor}, dict(consts)))  # noqa: S307 - our own expressions


# ---- the task ---------------------------------------------------------------------------------------------------

def jsonable(value):
    if isinstance(value, torch.Tensor):
        return {'dtype': dtype_name(value.dtype), 'shape': list(value.shape)}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    return repr(value)


def forward_names(model_class, count):
    params = list(inspect.signature(model_class.forward).parameters.values())[1:]
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return [names[i] if i < len(names) else 'arg%d' % i for i in range(count)]


def task_name(path):
    stem = os.path.splitext(os.path.basename(path))[0].lower()
    name = ''.join(c if c.isalnum() and c.isascii() or c == '_' else '_' for c in stem)
    return name or 'problem'


def scaled_constants(module, base, limit, notes):
    """The size constants divided by the smallest power of two that brings the tensors under limit bytes."""
    for shift in range(1, 24):
        consts = {p: (max(8, v >> shift) if isinstance(v, int) and v > 8 else v) for p, v in base.items()}
        try:
            seen = run(module, consts, True)
        except Problem:
            continue
        if tensor_bytes(seen) <= limit:
            return consts
    notes.append('no scaled-down sizes bring the tensors under %d bytes' % limit)
    return None


UNKNOWN_FLOPS = ('so the task has no compute floor: its speed of light is the memory floor alone, which a '
                 'compute-bound kernel never reaches, and % of speed of light reads low')


def count_flops(module, base, meta_forward):
    """(flops, how, gathered): the count on the meta forward at the given sizes (kforge_torch_flops.FlopCount), as a
    product of params where the counts with one param changed at a time fit one, (None, why) when it is unknown; and
    the keys of the tensors the forward only gathers rows from."""
    if not meta_forward:
        return None, 'unknown: the forward does not run on meta tensors, %s' % UNKNOWN_FLOPS, []
    first = run(module, base, True, flops=True)['runs'][0]
    if first['uncounted']:
        return None, 'unknown: the forward calls %s, which the count does not cover, %s' % (
            ', '.join('aten.' + n for n in first['uncounted']), UNKNOWN_FLOPS), first.get('gathered', [])
    f0 = first['flops']
    how = 'counted on the meta forward at the aten level (%s)' % (
        ', '.join('%s %d' % (op, n) for op, n in sorted(first['flops_by_op'].items())) if f0 else
        'no matmul, linear, bmm, einsum or convolution: 0, so the memory floor alone sets speed of light; '
        'elementwise ops, reductions and norms are not counted')
    if f0 == 0:
        return 0, how, first.get('gathered', [])
    observations = []
    for p, w in perturbations(base):
        changed = dict(base)
        changed[p] = w
        try:
            observations.append((p, w, run(module, changed, True, flops=True)['runs'][0]['flops']))
        except Problem:
            continue
    formula = fit_flops(f0, base, observations)
    how += ', written as a product of params that fits the counts with each param changed' if formula else \
        ', at the given sizes (no product of params fits the counts)'
    return (formula if formula is not None else int(f0)), how, first.get('gathered', [])


def discover(path, real_limit):
    started = time.time()
    module = load_module(path)
    base = size_constants(module)
    notes = []
    shape_keys = ('input', 'parameter', 'buffer', 'output')
    seen, shapes, checked = derive_shapes(module, base, True, shape_keys, notes)
    unchecked = [p for p, v in base.items() if isinstance(v, int) and v >= SMALL_DIM and p not in checked]
    if unchecked:
        notes.append('changing %s alone did not run on meta tensors: shapes are not checked against it'
                     % ', '.join(unchecked))
    full_bytes = tensor_bytes(seen)
    meta_forward = 'forward_error' not in seen
    derived = {'torch': torch.__version__, 'shapes': 'meta tensors (factory functions patched to the meta device); '
               'a dimension is an expression when changing one param alone on meta shows which it follows'}

    # Real runs: at the given sizes when small, else scaled down. Degenerate check, and outputs without meta.
    if full_bytes <= real_limit:
        real = dict(base)
        real_text = 'the given sizes'
    else:
        real = scaled_constants(module, base, real_limit, notes)
        real_text = 'params scaled down to %s' % json.dumps({k: v for k, v in (real or {}).items() if v != base[k]})
    real_seen = None
    if real is not None:
        try:
            real_seen = run(module, real, False, seeds=(1, 2))
        except Problem as e:
            if real == base or not meta_forward:
                raise
            notes.append('the real run at %s failed (%s: %s)' % (real_text, e.step, e.cause))
    if not meta_forward:
        if real_seen is None:
            raise Problem('forward', seen['forward_error'])
        _, out_shapes, _ = derive_shapes(module, real, False, ('output',), notes)
        for k, dims in out_shapes.items():
            full = [evaluate(d, base) for d in dims]
            scaled = [evaluate(d, real) for d in dims]
            if real != base and any(isinstance(d, int) and d != s for d, s in zip(dims, scaled)):
                raise Problem('output', 'forward fails on meta tensors (%s) and output %d\'s shape at the given '
                              'sizes cannot be derived from the scaled-down runs' % (seen['forward_error'], k[1]))
            shapes[k] = dims
            del full
        derived['outputs'] = 'real CPU runs at %s (the meta forward failed: %s)' % (real_text, seen['forward_error'])
    else:
        derived['outputs'] = 'meta forward at the given sizes'
    if USED_CUDA:
        notes.append('the problem asks for CUDA tensors (%s): here they are made on meta or the CPU'
                     % ', '.join(sorted(set(USED_CUDA))))
    if real_seen is not None and real_seen.get('upcast'):
        notes.append('the real CPU runs went in float32: this torch has no CPU kernel for an op in the low '
                     'precision of the inputs')
    if real_seen is not None:
        r1, r2 = real_seen['runs']
        s1 = [tuple(o.shape) for o in r1['outputs']]
        s2 = [tuple(o.shape) for o in r2['outputs']]
        if s1 != s2:
            raise Problem('repeat', 'the output shapes change between two calls: %s then %s' % (s1, s2))
        expect = [tuple(evaluate(d, real) for d in shapes[('output', i)]) for i in range(len(s1))]
        if len(expect) != len(s1) or expect != s1:
            raise Problem('repeat', 'the output shapes of the real run %s differ from the meta forward\'s %s'
                          % (s1, expect))
    outputs_meta = seen['runs'][0]['outputs'] or (real_seen['runs'][0]['outputs'] if real_seen else [])

    # Degenerate: same outputs for inputs from two seeds.
    degenerate, degenerate_how = None, None
    if real_seen is None:
        degenerate_how = 'not checked: no real run (%s)' % '; '.join(notes[-1:])
    else:
        r1, r2 = real_seen['runs']
        same_inputs = all((torch.equal(a, b) if isinstance(a, torch.Tensor) else a == b)
                          for a, b in zip(r1['inputs'], r2['inputs']))
        if same_inputs:
            degenerate_how = 'not checked: get_inputs() gives the same inputs for seeds 1 and 2'
        else:
            degenerate = all(torch.equal(a, b) for a, b in zip(r1['outputs'], r2['outputs']))
            degenerate_how = 'two real CPU runs at %s on inputs of seeds 1 and 2: outputs %s' % (
                real_text, 'equal (the output does not depend on the inputs)' if degenerate else 'differ')

    flops, flops_how, gathered = count_flops(module, base, meta_forward)

    names = forward_names(module.Model, len(seen['runs'][0]['inputs']))
    inputs = []
    for i, (name, x) in enumerate(zip(names, seen['runs'][0]['inputs'])):
        if isinstance(x, torch.Tensor):
            entry = {'name': name, 'dtype': dtype_name(x.dtype), 'shape': shapes[('input', i)]}
            init = seen['runs'][0]['inits'][i]
            entry['init'] = init
            if init is None:
                notes.append('input %s is computed in get_inputs(), not made by one factory call: init is null'
                             % name)
        elif isinstance(x, bool):
            entry = {'name': name, 'scalar': 'bool', 'value': x}
        elif isinstance(x, int):
            entry = {'name': name, 'scalar': 'int', 'value': x}
        elif isinstance(x, float):
            entry = {'name': name, 'scalar': 'float', 'value': x}
        else:
            entry = {'name': name, 'value': jsonable(x)}
        inputs.append(entry)
    out_names = ['out'] if len(outputs_meta) == 1 else ['out%d' % i for i in range(len(outputs_meta))]
    outputs = [{'name': out_names[i], 'dtype': dtype_name(o.dtype), 'shape': shapes[('output', i)]}
               for i, o in enumerate(outputs_meta)]

    def tensor_list(kind, items):
        return [{'name': n, 'dtype': dtype_name(t.dtype), 'shape': shapes[(kind, n)]} for n, t in items]
    parameters = tensor_list('parameter', seen['parameters'])
    buffers = tensor_list('buffer', seen['buffers'])
    tolerance = {}
    for o in outputs:
        tol = TOLERANCE.get(o['dtype'], (0, 0))
        tolerance[o['dtype']] = {'atol': tol[0], 'rtol': tol[1]}
    entries = [(t.element_size(), shapes[k]) for k, t in tensors_of(seen)
               if k[0] in ('input', 'parameter', 'buffer') and k not in gathered]
    bytes_how = 'every input, parameter, buffer and output read or written once'
    if gathered:
        bytes_how += (' but %s, only gathered from (embedding, index_select): the rows read depend on the indices, '
                      'so only the output they fill counts' % ', '.join(k[1] if isinstance(k[1], str) else
                                                                          'input %d' % k[1] for k in gathered))
    entries += [(o.element_size(), shapes[('output', i)]) for i, o in enumerate(outputs_meta)]

    doc = inspect.getdoc(module.Model) or ''
    title = doc.strip().splitlines()[0] if doc.strip() else task_name(path)
    derived.update({'flops': flops_how, 'tolerance': tolerance_how(tolerance), 'bytes': bytes_how,
                    'degenerate': degenerate_how, 'notes': notes, 'seconds': round(time.time() - started, 3)})
    task = {
        'kind': 'torch',
        'name': task_name(path),
        'title': title,
        'description': doc or 'PyTorch problem %s' % os.path.basename(path),
        'reference': 'reference.py',
        'params': base,
        'init_inputs': jsonable(seen['init_args']),
        'inputs': inputs,
        'parameters': parameters,
        'buffers': buffers,
        'outputs': outputs,
        'tolerance': tolerance,
        'flops': flops,
        'bytes': bytes_formula(entries),
        'degenerate': degenerate,
        'timeout_s': 60,
        'derived': derived,
    }
    return task


def pretty(value, indent=0):
    """JSON as the built-in task.json files write it: short lists and objects of scalars on one line."""
    def scalar(v):
        return not isinstance(v, (dict, list))
    one_line = json.dumps(value)
    if scalar(value) or (len(one_line) <= 100 and (
            (isinstance(value, list) and all(scalar(v) for v in value))
            or (isinstance(value, dict) and all(scalar(v) for v in value.values()))
            or (isinstance(value, list) and len(one_line) <= 60))):
        return one_line
    pad, inner = ' ' * indent, ' ' * (indent + 2)
    if isinstance(value, list):
        return '[\n' + ',\n'.join(inner + pretty(v, indent + 2) for v in value) + '\n' + pad + ']'
    return '{\n' + ',\n'.join('%s%s: %s' % (inner, json.dumps(k), pretty(v, indent + 2)) for k, v in value.items()) \
        + '\n' + pad + '}'


def discover_one(path, real_limit):
    """{"file", "task_json"} with the task.json text, or {"file", "error": {step, cause}}."""
    global PROBLEM_PATH
    PROBLEM_PATH = os.path.abspath(path)
    sys.path.insert(0, os.path.dirname(PROBLEM_PATH))
    started = time.time()
    try:
        task = discover(PROBLEM_PATH, real_limit)
    except Problem as e:
        return {'file': path, 'error': {'step': e.step, 'cause': e.cause}}
    except BaseException as e:  # noqa: BLE001 - a bug here is still a result, never a traceback alone
        return {'file': path, 'error': {'step': 'discover', 'cause': 'internal error: %s' % describe(e)}}
    return {'file': path, 'seconds': round(time.time() - started, 3), 'task_json': pretty(task) + '\n'}


def child(path, real_limit, write_fd):
    """In a forked process: discover one problem, its result as one JSON line on write_fd. What the problem
    prints goes to stderr, so that stdout carries results only."""
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    torch.set_num_threads(max(1, min(4, os.cpu_count() or 1)))
    result = discover_one(path, real_limit)
    data = (json.dumps(result) + '\n').encode()
    while data:
        data = data[os.write(write_fd, data):]
    os._exit(0)


def serve(files, jobs, timeout, real_limit):
    """--each: one forked child per problem (torch imported once, each problem isolated), `jobs` at a time;
    one JSON line per problem on stdout as each finishes; a child past `timeout` seconds is killed."""
    import select
    import signal
    pending, running = list(files), {}  # pid -> [file, started, fd, bytes]
    out = sys.stdout
    while pending or running:
        while pending and len(running) < jobs:
            path = pending.pop(0)
            read_fd, write_fd = os.pipe()
            out.flush()
            pid = os.fork()
            if pid == 0:
                os.close(read_fd)
                try:
                    child(path, real_limit, write_fd)
                finally:
                    os._exit(1)
            os.close(write_fd)
            running[pid] = [path, time.time(), read_fd, b'']
        fds = {entry[2]: pid for pid, entry in running.items() if entry[2] is not None}
        ready = select.select(list(fds), [], [], 0.05)[0] if fds else []
        for fd in ready:
            chunk = os.read(fd, 1 << 16)
            entry = running[fds[fd]]
            if chunk:
                entry[3] += chunk
            else:
                os.close(fd)
                entry[2] = None
        for pid, entry in list(running.items()):
            path, started, fd, data = entry
            done, status = os.waitpid(pid, os.WNOHANG) if fd is None else (0, 0)
            if fd is not None and time.time() - started > timeout:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                os.close(fd)
                result = {'file': path, 'error': {'step': 'timeout',
                                                  'cause': 'no result within %g s' % timeout}}
            elif done:
                try:
                    result = json.loads(data.decode())
                except ValueError:
                    how = ('signal %d' % os.WTERMSIG(status)) if os.WIFSIGNALED(status) else \
                        ('exit status %d' % os.WEXITSTATUS(status))
                    result = {'file': path, 'error': {'step': 'discover',
                                                      'cause': 'the discovery process died (%s)' % how}}
            else:
                continue
            del running[pid]
            out.write(json.dumps(result) + '\n')
            out.flush()


def main(argv):
    args = list(argv[1:])
    options = {'--real-bytes': 16 << 20, '--jobs': 2, '--timeout': 120.0}
    each = '--each' in args
    if each:
        args.remove('--each')
    for name, default in options.items():
        if name in args:
            i = args.index(name)
            options[name] = type(default)(args[i + 1])
            del args[i:i + 2]
    if not args or (len(args) != 1 and not each):
        print('usage: kforge_torch_discover.py PROBLEM.py [--real-bytes N]\n'
              '       kforge_torch_discover.py --each [--jobs N] [--timeout S] PROBLEM.py...', file=sys.stderr)
        return 2
    if each:
        serve(args, max(1, options['--jobs']), options['--timeout'], options['--real-bytes'])
        return 0
    real_stdout = os.dup(1)
    os.dup2(2, 1)  # what the problem prints goes to stderr
    result = discover_one(args[0], options['--real-bytes'])
    sys.stdout.flush()
    text = result['task_json'] if 'task_json' in result else json.dumps({'error': dict(result['error'], file=args[0])}) + '\n'
    os.write(real_stdout, text.encode())
    return 0 if 'task_json' in result else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
