#!/usr/bin/env python3
"""resources/torch/kforge_torch_discover.py on its own, without Qt (the GPU host runs it too):

    python3 tests/resources/torch/check_discover.py [--python PATH]

Single-file mode (one task.json on stdout, even when the problem prints), --each mode over the fixtures, the
FLOP counts (kforge_torch_flops.py, the same on torch 1.13 and 2.x: GEMMs 2*M*N*K, convolutions, a count that is
unknown says so) and the tolerance's provenance. Exit 77 (SKIP) when no python3 with torch is found; 1 with the
failed checks listed.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
SCRIPT = os.path.join(ROOT, 'resources', 'torch', 'kforge_torch_discover.py')
GOOD = os.path.join(ROOT, 'tests', 'fixtures', 'torch_problems')
FAILED = []
POOL_BIAS = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 1)
        self.pool = nn.MaxPool2d((kernel_size, 1), stride=(2, 1), padding=(1, 0))
        self.up = nn.ConvTranspose2d(out_channels, out_channels, (1, kernel_size), stride=(1, 2), padding=(0, 1))
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        return self.up(self.pool(self.conv(x))) - self.bias


batch_size = 16
in_channels = 8
out_channels = 32
height = 256
width = 128
kernel_size = 4
bias_shape = (out_channels, 1, 1)


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, bias_shape]
'''


def check(ok, what):
    print(('ok    ' if ok else 'FAIL  ') + what)
    if not ok:
        FAILED.append(what)


def torch_python(argv):
    candidates = [argv[argv.index('--python') + 1]] if '--python' in argv else ['python3', '/usr/bin/python3']
    for python in candidates:
        try:
            p = subprocess.run([python, '-c', 'import sys, torch; sys.stdout.write(torch.__version__)'],
                               capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if p.returncode == 0:
            return python, tuple(int(x) for x in p.stdout.split('+')[0].split('.')[:2])
    return None, None


FFT = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.fft.rfft(x).abs()


n = 4096


def get_inputs():
    return [torch.randn(8, n)]
'''


def discover(python, path):
    p = subprocess.run([python, SCRIPT, path], capture_output=True, text=True, timeout=300)
    try:
        return json.loads(p.stdout)
    except ValueError:
        return {'error': p.stderr[-500:]}


def check_kernelbench_flops(python):
    """Every counted op of tests/fixtures/kernelbench/level1 against its formula: 2*M*N*K per product (a matmul with
    a long K, bmm, a 3-D tensor times a matrix, a matrix-vector product) and 2 * batch * output positions * weight
    elements per convolution (strided, depthwise, transposed 1-D)."""
    level1 = os.path.join(ROOT, 'tests', 'fixtures', 'kernelbench', 'level1')
    want = {
        '1_Matmul_long_K.py': '2*M*N*K',
        '2_Batched_matmul_bmm.py': '2*batch_size*m*k*n',
        '3_Tensor3d_times_matrix.py': '2*N*M*K*L',
        '22_Matrix_vector_product.py': '2*M*K',
        # 16 images, 128 x 64 x 3 x 3 weights, a 256 x 256 output (stride 2, padding 1)
        '4_Conv2d_strided_padded.py': 2 * 16 * 256 * 256 * 128 * 64 * 3 * 3,
        # groups = channels: the weight is 96 x 1 x 7 x 7, the output 256 x 256 (padding 3)
        '5_Depthwise_conv2d_k7.py': 2 * 32 * 256 * 256 * 96 * 7 * 7,
        # transposed: the input's positions times the 32 x 64 x 5 weight, a product of params
        '6_ConvTranspose1d_dilated.py': '2*batch_size*in_channels*out_channels*kernel_size*length',
    }
    for name, flops in want.items():
        task = discover(python, os.path.join(level1, name))
        got = task.get('flops')
        if isinstance(flops, str) and isinstance(got, str):
            # the same product, whatever the order of its factors
            ok = sorted(got.split('*')) == sorted(flops.split('*'))
        else:
            ok = got == flops
        check(ok, 'kernelbench %s flops %r == %r (%s)' % (name, got, flops, task.get('derived', {}).get('flops')))


def check_unknown_flops(python):
    """A forward with an op the count does not cover (an FFT) gets null, the op named and what it means."""
    with tempfile.TemporaryDirectory() as tmp:
        problem = os.path.join(tmp, 'fft_abs.py')
        with open(problem, 'w') as f:
            f.write(FFT)
        task = discover(python, problem)
        how = task.get('derived', {}).get('flops', '')
        check('flops' in task and task['flops'] is None and how.startswith('unknown') and 'fft' in how
              and 'no compute floor' in how and 'memory floor alone' in how,
              'an FFT makes the count unknown and says what that means: %r' % how)


EMBED = '''import torch
import torch.nn as nn
rows = 4096
width = 256
tokens = 512


class Model(nn.Module):
    def __init__(self, rows, width, tied):
        super().__init__()
        self.table = nn.Embedding(rows, width)
        self.tied = tied

    def forward(self, ids):
        out = self.table(ids)
        return out @ self.table.weight.t() if self.tied else out


def get_inputs():
    return [torch.randint(0, rows, (tokens,))]


def get_init_inputs():
    return [rows, width, TIED]
'''


def check_gathered_bytes(python):
    """A table the forward only gathers rows from (an embedding) adds no bytes of its own: the rows it reads depend on
    the indices, and the output they fill is counted. The same table also read whole (tied to an output projection)
    counts in full."""
    with tempfile.TemporaryDirectory() as tmp:
        for tied, want in ((False, '8*tokens + 4*tokens*width'), (True, None)):
            problem = os.path.join(tmp, 'embed_%s.py' % ('tied' if tied else 'plain'))
            with open(problem, 'w') as f:
                f.write(EMBED.replace('TIED', str(tied)))
            task = discover(python, problem)
            got, how = task.get('bytes'), task.get('derived', {}).get('bytes', '')
            if tied:
                check(isinstance(got, str) and 'rows*width' in got and 'gathered' not in how,
                      'a table also read whole counts in full: %r (%s)' % (got, how))
            else:
                check(got == want and 'table.weight, only gathered from' in how,
                      'an embedding table only gathered from adds no bytes: %r == %r (%s)' % (got, want, how))


def main(argv):
    python, version = torch_python(argv)
    if python is None:
        print('SKIP: no python3 with torch (tried python3, /usr/bin/python3)')
        return 77
    print('torch %d.%d from %s' % (version + (python,)))

    # Single-file mode: the task on stdout although the problem prints.
    p = subprocess.run([python, SCRIPT, os.path.join(GOOD, 'level1_04_relu.py')], capture_output=True, text=True,
                       timeout=300)
    task = json.loads(p.stdout)
    check(p.returncode == 0 and task['kind'] == 'torch', 'single-file mode prints one task.json')
    check('relu problem loaded' in p.stderr, "the problem's print went to stderr")
    p = subprocess.run([python, SCRIPT, os.path.join(ROOT, 'tests', 'fixtures', 'torch_problems_bad', 'no_model.py')],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 1 and json.loads(p.stdout)['error']['step'] == 'lookup', 'single-file error object')

    # --each over the fixtures: every problem imports; FLOPs as products of params with torch >= 2.1.
    files = sorted(os.path.join(GOOD, f) for f in os.listdir(GOOD) if f.endswith('.py'))
    p = subprocess.run([python, SCRIPT, '--each', '--jobs', '4'] + files, capture_output=True, text=True, timeout=600)
    results = {os.path.basename(r['file']): r for r in map(json.loads, p.stdout.splitlines())}
    check(sorted(results) == sorted(map(os.path.basename, files)), '--each gives one result per problem')
    tasks = {}
    for name, r in sorted(results.items()):
        check('task_json' in r, '%s imports%s' % (name, '' if 'task_json' in r else ': %s' % r.get('error')))
        if 'task_json' in r:
            tasks[name] = json.loads(r['task_json'])
    expected = {
        'level1_01_matmul.py': '2*M*K*N',
        'level1_03_linear_huge.py': '2*batch_size*in_features*out_features',
        'level2_17_gemm_bias_relu.py': '2*batch_size*in_features*out_features',
        'level2_19_matmul_scale_residual.py': '2*batch_size*dim*dim',
    }
    for name, formula in expected.items():
        task = tasks.get(name, {})
        check(task.get('flops') == formula, '%s flops %r == %r' % (name, task.get('flops'), formula))
    conv = tasks.get('level1_11_conv2d.py', {})
    # 2 * batch * out_channels * (H-2) * (W-2) * in_channels * 3 * 3: no product of params, so a number.
    want = 2 * 16 * 64 * 254 * 254 * 3 * 3 * 3
    check(conv.get('flops') == want, 'conv2d flops %r == %d' % (conv.get('flops'), want))
    relu = tasks.get('level1_04_relu.py', {})
    check(relu.get('flops') == 0 and 'memory floor alone' in relu.get('derived', {}).get('flops', ''),
          'relu counts no FLOP and says the memory floor alone binds')
    tol = tasks.get('level1_01_matmul.py', {}).get('derived', {}).get('tolerance', '')
    check('f32 atol 0.0001' in tol and 'KernelBench' in tol and '1e-2' in tol,
          "the tolerance says where it came from and KernelBench's 1e-2: %r" % tol)
    check_kernelbench_flops(python)
    check_unknown_flops(python)
    check_gathered_bytes(python)
    check(tasks.get('level1_10_degenerate.py', {}).get('degenerate') is True, 'degenerate problem flagged')
    check(tasks.get('level1_02_softmax_huge.py', {}).get('bytes') == '8*batch_size*dim', 'softmax bytes')
    # A dimension that follows two params as a sum (a pooling's output follows the input and a kernel size of at
    # least 4, a transposed convolution's too) is an expression, so that the scaled-down real run agrees with it;
    # a module-level constant computed from a size constant (bias_shape = (out_channels, 1, 1)) follows it when
    # the constant changes, so that the changed and scaled-down runs work.
    with tempfile.TemporaryDirectory() as tmp:
        problem = os.path.join(tmp, 'pool_bias.py')
        with open(problem, 'w') as f:
            f.write(POOL_BIAS)
        p = subprocess.run([python, SCRIPT, problem], capture_output=True, text=True, timeout=300)
        task = json.loads(p.stdout)
        check(p.returncode == 0 and 'error' not in task, 'pool_bias imports%s' % (
            '' if p.returncode == 0 else ': %s' % task.get('error')))
        if p.returncode == 0:
            out = task['outputs'][0]['shape']
            check(out == ['batch_size', 'out_channels', '(height - kernel_size + 4)/2', '2*width + kernel_size - 4'],
                  'sums of two params: %r' % out)
            bias = [t['shape'] for t in task['parameters'] if t['name'] == 'bias']
            check(bias == [['out_channels', 1, 1]], 'bias_shape follows out_channels: %r' % bias)
            check(task['degenerate'] is False and not task['derived']['notes'],
                  'real run at scaled sizes, no notes: %r' % task['derived']['notes'])
    print('check_discover: %d failed: %s' % (len(FAILED), '; '.join(FAILED)) if FAILED else 'check_discover: all passed')
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
