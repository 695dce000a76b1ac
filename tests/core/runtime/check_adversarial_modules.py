#!/usr/bin/env python3
"""The adversarial suite's torch cases without a GPU (tests/gpu/adversarial, docs/adversarial.md, ctest
tst_adversarial_modules). Without torch: every case of a torch task in cases.json names an existing task folder of
kind torch and an existing file; every .py compiles, starts with its header comment, and defines
`class ModelNew(nn.Module)` whose constructor and forward take as many arguments as the reference's `Model`. With
torch, each module in a process of its own (some patch torch or set global flags): it imports, is built with the
task's init_inputs, has the reference's state-dict names, shapes and dtypes, and on small CPU inputs with the
reference's moved weights does what its header says where a CPU can show it (BEHAVIOUR: the honest ones and the
cheats that only a GPU exposes match the reference; the cheats a CPU exposes do not; modules with side effects
outside their process are only read).
Usage: check_adversarial_modules.py [SOURCE_ROOT] [--no-torch]; exit 0 all ok, 1 a problem."""

import argparse
import ast
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

# What a module does on the CPU, by file: 'match' (the reference's outputs over three successive calls),
# 'differs' (an exception, another dtype or shape, or other values on some call, declared or scaled x256 inputs),
# 'raises_construct' (the constructor raises), 'read_only' (side effects outside its process: never run here).
BEHAVIOUR = {
    'th_two_streams_matmul.py': 'match',
    'th_inline_rowscale.py': 'match',
    'th_graph_layernorm.py': 'match',
    'th_inplace_layernorm.py': 'match',
    'th_triton_softmax.py': 'match',
    'th_compile_softmax.py': 'match',
    'th_linear_f16_tensorcore.py': 'match',  # f32 on the CPU (no half GEMM there): the same product
    't_cache_by_pointer.py': 'match',  # a cache that never hits computes honestly
    't_one_call_in_four.py': 'differs',
    't_rebind_host.py': 'match',  # no module host in this process: honest
    't_patch_timers.py': 'match',
    't_layernorm_no_affine.py': 'differs',
    't_softmax_without_max.py': 'differs',
    't_matmul_bf16.py': 'differs',
    't_matmul_allow_tf32.py': 'match',  # TF32 exists only on the GPU
    't_gemm_half_inside.py': 'differs',
    't_gemm_tf32_inside.py': 'match',  # TF32 exists only on the GPU
    't_output_f16.py': 'differs',
    't_output_shape.py': 'differs',
    't_lazy_subclass.py': 'match',
    't_constant_row_sum.py': 'differs',
    't_cached_first_softmax.py': 'differs',
    't_side_stream_unjoined.py': 'match',  # no streams on the CPU
    't_zero_inputs.py': 'differs',
    't_escape_files.py': 'read_only',
    't_escape_dev_shm.py': 'read_only',
    't_setsid_orphan.py': 'read_only',
    't_constructor_raises.py': 'raises_construct',
    't_forward_raises.py': 'differs',
    't_burn_beside_window.py': 'match',  # the spinner is GPU-only; the product is honest
}

# Small sizes for the CPU runs (the modules read their sizes from the inputs).
SMALL = {'M': 64, 'K': 64, 'N': 64, 'batch_size': 8, 'dim': 256, 'features': 4096}


def module_signature(path, cls_name):
    """(constructor argument count, forward argument count, bases) of class cls_name in the file, or an error."""
    with open(path, encoding='utf-8') as f:
        source = f.read()
    tree = ast.parse(source, path)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls_name:
            methods = {n.name: n for n in node.body if isinstance(n, ast.FunctionDef)}
            counts = [len(methods[m].args.args) - 1 if m in methods else None for m in ('__init__', 'forward')]
            return counts[0], counts[1], [ast.unparse(b) for b in node.bases]
    return None


def static_problems(root):
    adv = os.path.join(root, 'tests', 'gpu', 'adversarial')
    tasks = os.path.join(root, 'resources', 'tasks')
    with open(os.path.join(adv, 'cases.json'), encoding='utf-8') as f:
        manifest = json.load(f)
    problems, torch_cases = [], []
    listed = set()
    for case in manifest['cases']:
        name, task = case.get('file', ''), case.get('task', '')
        listed.add(name)
        path = os.path.join(adv, name)
        task_json = os.path.join(tasks, task, 'task.json')
        if not os.path.isfile(path):
            problems.append('%s: no such file in %s' % (name, adv))
            continue
        if not os.path.isfile(task_json):
            problems.append('%s: no task %s' % (name, task))
            continue
        with open(task_json, encoding='utf-8') as f:
            spec = json.load(f)
        if spec.get('kind') != 'torch':
            if name.endswith('.py'):
                problems.append('%s: a module needs a torch task, %s is a CUDA task' % (name, task))
            continue
        if not name.endswith('.py'):
            continue
        torch_cases.append((name, task, spec))
        with open(path, encoding='utf-8') as f:
            source = f.read()
        try:
            compile(source, path, 'exec')
        except SyntaxError as e:
            problems.append('%s: does not compile: %s' % (name, e))
            continue
        if not source.startswith(('# Class ', '# Honest')):
            problems.append('%s: no header comment ("# Class ..." or "# Honest: ...")' % name)
        if 'KForge must report' not in source.split('\nimport')[0]:
            problems.append('%s: the header does not say what KForge must report' % name)
        mine = module_signature(path, 'ModelNew')
        theirs = module_signature(os.path.join(tasks, task, spec.get('reference', 'reference.py')), 'Model')
        if mine is None:
            problems.append('%s: defines no class ModelNew' % name)
        elif not any(b.endswith('Module') for b in mine[2]):
            problems.append('%s: ModelNew is not an nn.Module (bases: %s)' % (name, ', '.join(mine[2]) or 'none'))
        elif theirs and mine[:2] != theirs[:2]:
            problems.append('%s: ModelNew takes %s constructor and %s forward arguments, the reference Model %s and %s'
                            % (name, mine[0], mine[1], theirs[0], theirs[1]))
        if name not in BEHAVIOUR:
            problems.append('%s: not in BEHAVIOUR of %s (say what it does on the CPU)' % (name, os.path.basename(__file__)))
    for name in BEHAVIOUR:
        if name not in listed:
            problems.append('%s: in BEHAVIOUR but not a case of cases.json' % name)
    return problems, torch_cases


# ---- one module, in a process of its own (--one FILE TASK) ---------------------------------------------------------
def run_one(root, name, task):
    import importlib.util

    import torch
    allclose = torch.allclose  # before a module patches it
    adv = os.path.join(root, 'tests', 'gpu', 'adversarial')
    folder = os.path.join(root, 'resources', 'tasks', task)
    with open(os.path.join(folder, 'task.json'), encoding='utf-8') as f:
        spec = json.load(f)
    behaviour = BEHAVIOUR[name]

    def load(path, tag):
        s = importlib.util.spec_from_file_location(tag, path)
        m = importlib.util.module_from_spec(s)
        s.loader.exec_module(m)
        return m

    torch.manual_seed(0)
    reference = load(os.path.join(folder, spec.get('reference', 'reference.py')), 'kfadv_reference').Model(
        *spec.get('init_inputs', []))
    candidate_module = load(os.path.join(adv, name), 'kfadv_candidate')
    try:
        candidate = candidate_module.ModelNew(*spec.get('init_inputs', []))
    except Exception as e:  # noqa: BLE001 - what the constructor raised is the finding
        return 'ok' if behaviour == 'raises_construct' else 'the constructor raised %s: %s' % (type(e).__name__, e)
    if behaviour == 'raises_construct':
        return 'the constructor did not raise'
    # The judge's weights: every floating entry moved away from its initial value, the same in both.
    state = reference.state_dict()
    for key, value in state.items():
        if value.is_floating_point():
            state[key] = value + 0.5 * torch.randn_like(value) + 0.25
    reference.load_state_dict(state)
    mine = candidate.state_dict()
    if [(k, v.dtype, tuple(v.shape)) for k, v in mine.items()] != [(k, v.dtype, tuple(v.shape)) for k, v in state.items()]:
        return 'state dict %s, the reference\'s %s' % (list(mine), list(state))
    candidate.load_state_dict(state)
    reference.eval()
    candidate.eval()
    sizes = {**spec.get('params', {}), **{k: v for k, v in SMALL.items() if k in spec.get('params', {})}}
    tol = spec.get('tolerance', {}).get('f32', {'atol': 1e-4, 'rtol': 1e-4})

    def inputs(scale):
        out = []
        for t in spec['inputs']:
            shape = [d if isinstance(d, int) else int(eval(d, {}, dict(sizes))) for d in t['shape']]  # noqa: S307
            init = t.get('init', {})
            if init.get('dist') == 'uniform':
                x = torch.rand(shape) * (init.get('high', 1) - init.get('low', 0)) + init.get('low', 0)
            else:
                x = torch.randn(shape) * init.get('std', 1) + init.get('mean', 0)
            out.append(x * scale)
        return out

    differences = []
    with torch.no_grad():
        for call, scale in enumerate((1, 1, 1, 256)):
            args = inputs(scale)
            expected = reference(*[a.clone() for a in args])
            try:
                got = candidate(*args)
            except Exception as e:  # noqa: BLE001
                differences.append('call %d raised %s: %s' % (call, type(e).__name__, e))
                break
            if got.dtype != expected.dtype or tuple(got.shape) != tuple(expected.shape):
                differences.append('call %d: %s %s, the reference %s %s' % (call, got.dtype, tuple(got.shape),
                                                                            expected.dtype, tuple(expected.shape)))
                break
            buffer = torch.empty_like(expected)  # as the module host does: the result copied into the output
            buffer.copy_(got)
            if not allclose(buffer, expected, atol=tol['atol'], rtol=tol['rtol'], equal_nan=True):
                differences.append('call %d (inputs x%d): max |diff| %.3g' % (call, scale,
                                                                             (buffer - expected).abs().max().item()))
                if scale == 1:
                    break
    if behaviour == 'match':
        # Scaled inputs may take a legitimate kernel out of the reference's range; the declared ones may not.
        declared = [d for d in differences if 'x256' not in d]
        return 'ok' if not declared else 'differs from the reference: ' + '; '.join(declared)
    return 'ok' if differences else 'matches the reference on every call, the header says it does not'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('root', nargs='?', default=ROOT)
    ap.add_argument('--no-torch', action='store_true', help='the checks that need no torch only')
    ap.add_argument('--one', nargs=2, metavar=('FILE', 'TASK'), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        print(run_one(a.root, *a.one))
        return 0
    problems, torch_cases = static_problems(a.root)
    try:
        import torch  # noqa: F401
        have_torch = not a.no_torch
    except ImportError:
        have_torch = False
    runnable = [(n, t) for n, t, _ in torch_cases if BEHAVIOUR.get(n, 'read_only') != 'read_only']
    if have_torch:
        def one(case):
            # The CPU's behaviour also on a GPU host: no module builds its CUDA path here.
            env = dict(os.environ, CUDA_VISIBLE_DEVICES='', PYTHONDONTWRITEBYTECODE='1')
            p = subprocess.run([sys.executable, os.path.abspath(__file__), a.root, '--one', *case],
                               capture_output=True, text=True, timeout=300, env=env)
            last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ''
            return case[0], last if p.returncode == 0 else 'exit %d: %s' % (p.returncode, p.stderr.strip()[-800:])
        with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
            for name, verdict in pool.map(one, runnable):
                print('%-28s %s' % (name, verdict))
                if verdict != 'ok':
                    problems.append('%s (%s): %s' % (name, BEHAVIOUR[name], verdict))
    else:
        print('no torch here: the %d modules were only read' % len(torch_cases))
    for p in problems:
        print('PROBLEM', p)
    print('%d torch cases, %d run on the CPU: %s' % (len(torch_cases), len(runnable) if have_torch else 0,
                                                     'FAILED' if problems else 'ok'))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
