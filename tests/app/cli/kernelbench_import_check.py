#!/usr/bin/env python3
"""`kforge-cli import` of tests/fixtures/kernelbench (our own problems in KernelBench's format, level1/ single ops
and level2/ fusions, some of them huge: a softmax over 4096 x 393216 floats, a 32768 x 32768 GEMM):

    python3 kernelbench_import_check.py --cli KFORGE_CLI [--python PATH]

Run by a python3 with torch (--python, else this one), which kforge-cli is given as --python. Every problem must
import (exit 0, a task.json per problem, reference.py as given), the degenerate ones (DEGENERATE) be flagged and
every other one checked and not flagged (a real run at scaled-down sizes worked), no shape written as a number
for want of an expression, a few shapes as expected, and each problem discovered in seconds (nothing big is
materialised).
Exit 77 (SKIP) without torch; 1 with the failed checks listed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
FIXTURES = os.path.join(ROOT, 'tests', 'fixtures', 'kernelbench')
LEVELS = {'level1': 14, 'level2': 8}  # folder: the fewest problems it holds
DEGENERATE = {'3_matmul_dropout_mean_softmax', '4_conv3d_groupnorm_min_clamp_dropout'}
SHAPES = {  # task: {tensor name: shape}
    '7_maxpool2d_k4': {'out': ['batch_size', 'channels', '(height - kernel_size + 4)/2',
                               '(width - kernel_size + 4)/2']},
    '6_convtranspose1d_dilated': {'out': ['batch_size', 'out_channels', '2*kernel_size + 2*length - 7']},
    '5_depthwise_conv2d_k7': {'out': ['batch_size', 'channels', 'height - kernel_size + 7',
                                      'width - kernel_size + 7']},
    '1_gemm_biasadd_relu_32k': {'out': ['batch_size', 'out_features'], 'bias': ['out_features'],
                                'gemm.weight': ['out_features', 'in_features']},
    '7_convtranspose2d_biassubtract_tanh': {'bias': ['out_channels', 1, 1]},
    '9_softmax_wide_rows': {'x': ['batch_size', 'dim']},
    '14_argmax_over_dim': {'out': ['batch_size', 'dim2']},
}
DTYPES = {'14_argmax_over_dim': {'out': 'i64'}, '16_crossentropy_int64_targets': {'targets': 'i64'},
          '17_embedding_lookup': {'ids': 'i64'}, '18_masked_select_where': {'mask': 'bool'}}
SECONDS_PER_PROBLEM = 30
FAILED = []


def check(ok, what):
    print(('ok    ' if ok else 'FAIL  ') + what)
    if not ok:
        FAILED.append(what)


def task_name(path):
    stem = os.path.splitext(os.path.basename(path))[0].lower()
    return ''.join(c if c.isalnum() and c.isascii() or c == '_' else '_' for c in stem) or 'problem'


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--cli', required=True, help='kforge-cli')
    parser.add_argument('--python', default=sys.executable, help='a python3 with torch (default: this one)')
    args = parser.parse_args()
    probe = subprocess.run([args.python, '-c', 'import sys, torch; sys.stdout.write(torch.__version__)'],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        print('SKIP: no torch in %s (Debian: apt install python3-torch)' % args.python)
        return 77
    print('torch %s from %s' % (probe.stdout, args.python))

    folders = [os.path.join(FIXTURES, level) for level in LEVELS]
    files = {}
    for level, least in LEVELS.items():
        found = sorted(f for f in os.listdir(os.path.join(FIXTURES, level)) if f.endswith('.py'))
        check(len(found) >= least, '%s holds %d problems (at least %d)' % (level, len(found), least))
        for f in found:
            files[task_name(f)] = os.path.join(FIXTURES, level, f)
    check(len(files) == sum(len([f for f in os.listdir(d) if f.endswith('.py')]) for d in folders),
          'no two problems share a task name')

    with tempfile.TemporaryDirectory() as out:
        started = time.time()
        # The parent folder: import searches subfolders (level1/, level2/), as a KernelBench checkout has them.
        p = subprocess.run([args.cli, 'import', FIXTURES, '--out', out, '--python', args.python],
                           capture_output=True, text=True, timeout=900)
        seconds = time.time() - started
        print(p.stdout.rstrip())
        if p.stderr.strip():
            print(p.stderr.rstrip()[-3000:], file=sys.stderr)
        check(p.returncode == 0, 'kforge-cli import exits 0 (got %d)' % p.returncode)
        check('Imported %d of %d problem(s)' % (len(files), len(files)) in p.stdout,
              'the summary says all %d imported' % len(files))
        print('import of %d problems: %.1f s' % (len(files), seconds))
        tasks = {}
        for name, path in sorted(files.items()):
            task_json = os.path.join(out, name, 'task.json')
            if not os.path.isfile(task_json):
                check(False, '%s: task.json written' % name)
                continue
            with open(task_json) as f:
                tasks[name] = json.load(f)
            with open(os.path.join(out, name, 'reference.py'), 'rb') as f, open(path, 'rb') as g:
                check(f.read() == g.read(), '%s: reference.py is the problem as given' % name)

    for name, task in sorted(tasks.items()):
        derived = task.get('derived', {})
        bad = [n for n in derived.get('notes', []) if 'no simple way' in n or 'did not run' in n or 'failed' in n]
        check(task.get('kind') == 'torch' and not bad, '%s: a torch task, every shape checked%s'
              % (name, ': %s' % bad if bad else ''))
        want = name in DEGENERATE
        check(task.get('degenerate') is want, '%s: degenerate %r (want %r; %s)'
              % (name, task.get('degenerate'), want, derived.get('degenerate')))
        check(derived.get('seconds', 1e9) < SECONDS_PER_PROBLEM, '%s: discovered in %s s (under %d)'
              % (name, derived.get('seconds'), SECONDS_PER_PROBLEM))
        tensors = {t['name']: t for t in task.get('inputs', []) + task.get('parameters', []) + task.get('buffers', [])
                   + task.get('outputs', []) if 'shape' in t}
        for tensor, shape in SHAPES.get(name, {}).items():
            got = tensors.get(tensor, {}).get('shape')
            check(got == shape, '%s: %s shape %r == %r' % (name, tensor, got, shape))
        for tensor, dtype in DTYPES.get(name, {}).items():
            got = tensors.get(tensor, {}).get('dtype')
            check(got == dtype, '%s: %s dtype %r == %r' % (name, tensor, got, dtype))
    scalars = [a for a in tasks.get('19_scalar_multiply_add', {}).get('inputs', []) if 'scalar' in a]
    check(scalars == [{'name': 's', 'scalar': 'float', 'value': 3.14}], 'a Python float forward argument: %r' % scalars)

    print('kernelbench_import: %d failed: %s' % (len(FAILED), '; '.join(FAILED)) if FAILED else
          'kernelbench_import: all %d problems imported as expected' % len(tasks))
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
