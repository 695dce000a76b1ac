#!/usr/bin/env bash
# ncu against the judge (issue 19): every built-in task's "good" variant run plainly with
# `kforge-worker --launch` under `ncu --clock-control none --metrics gpu__time_duration.sum`, its kernels'
# time per run set beside the candidate's external per-call figure from a `kforge-worker --self-test` table.
# Twice: ncu's default (its cache control flushes L2 before every kernel, the same buffers every run), and
# back to back as in the judge's batches (`--cache-control none`, `--launch --no-flush --sets 4`: every run
# its own buffers, after the previous run's outputs), where a kernel also pays for writing back the outputs
# its predecessor left dirty in L2.
# A third column where KFORGE_NCU_MANY_SETS names tasks (space-separated): back to back over as many sets as
# the judge's batches use (KFORGE_NCU_SETS, default 128: for a short call, every call of a window has its own
# buffers), where the TLB holds the translations of only a few of them. KFORGE_NCU_TASKS: only these tasks.
#   tests/gpu/tools/ncu_agreement.sh WORKER SELFTEST_TXT WORKDIR      (prints one row per task)
set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
WORKER=$1 SELFTEST=$2 RES=$3
mkdir -p "$RES"
python3 - "$ROOT" "$WORKER" "$RES" > "$RES/ncu.sh" <<'PY'
import json, os, sys
root, worker, res = sys.argv[1:4]
many = os.environ.get('KFORGE_NCU_MANY_SETS', '').split()
nsets = int(os.environ.get('KFORGE_NCU_SETS', '128'))
only = os.environ.get('KFORGE_NCU_TASKS', '').split()  # empty: every built-in task
for t in sorted(os.listdir(root + '/resources/tasks')):
    tj = json.load(open(f'{root}/resources/tasks/{t}/task.json'))
    if tj.get('kind') == 'torch':  # kforge-worker --launch runs CUDA tasks only
        print(f'echo "skip {t}: a torch task"')
        continue
    v = [x for x in tj.get('variants', []) if x.get('label') == 'good']
    if not v or (only and t not in only):
        continue
    so = f'{res}/{t}_good.so'
    flags = ' '.join(tj.get('nvcc_flags', []))
    print(f'nvcc -O3 -lineinfo -arch=sm_90 -shared -Xcompiler -fPIC -I{root}/core/runtime/include {flags} '
          f'-o {so} {root}/resources/tasks/{t}/{v[0]["file"]} && ncu --clock-control none --metrics '
          f'gpu__time_duration.sum --csv {worker} --launch {root}/resources/tasks/{t} {so} --runs 5 '
          f'> {res}/ncu_{t}.csv 2>/dev/null && ncu --clock-control none --cache-control none --metrics '
          f'gpu__time_duration.sum --csv {worker} --launch {root}/resources/tasks/{t} {so} --runs 12 --sets 4 '
          f'--no-flush > {res}/b2b_{t}.csv 2>/dev/null' + (
          f' && ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv {worker} --launch '
          f'{root}/resources/tasks/{t} {so} --runs {nsets + 8} --sets {nsets} --no-flush > {res}/many_{t}.csv 2>/dev/null'
          if t in many else ''))
PY
bash "$RES/ncu.sh"
python3 - "$RES" "$SELFTEST" <<'PY'
import collections, csv, glob, os, sys
res = sys.argv[1]
ext = {}
for line in open(sys.argv[2]):
    p = line.split()
    if len(p) > 5 and p[1] == 'good' and p[2] == 'correct':
        ext[p[0]] = float(p[4])
worker_kernels = ('fillKernel', 'compareKernel', 'resetKernel', 'diffKernel', 'fmaKernel', 'kforgeHost')
scale = {'ns': 1e-6, 'nsecond': 1e-6, 'us': 1e-3, 'usecond': 1e-3, 'ms': 1.0, 'msecond': 1.0}
def per_run(f, skip_runs=0):
    rows = list(csv.reader(l for l in open(f) if l.startswith('"')))
    if not rows:
        return None, 0
    h = rows[0]
    ki, vi, ui = h.index('Kernel Name'), h.index('Metric Value'), h.index('Metric Unit')
    kernels = [r for r in rows[1:] if not any(w in r[ki] for w in worker_kernels)]
    names = collections.Counter(r[ki].split('(')[0] for r in kernels)
    per = max(1, sum(names.values()) // max(names.values())) if names else 1  # kernels per run
    runs = [sum(float(r[vi].replace(',', '')) * scale.get(r[ui], 1e-9) for r in kernels[i:i + per])
            for i in range(0, len(kernels) - per + 1, per)]
    runs = runs[skip_runs:] or runs
    runs.sort()
    return (runs[len(runs) // 2] if runs else None), per
print('%-16s %9s %9s %7s %9s %7s %9s %7s %s' % ('task', 'ncu_ms', 'judge_ms', 'diff%', 'b2b_ms', 'diff%', 'sets_ms',
                                             'diff%', 'kernels/run'))
for f in sorted(glob.glob(res + '/ncu_*.csv')):
    t = os.path.basename(f)[4:-4]
    n, per = per_run(f)
    b, _ = per_run(res + '/b2b_' + t + '.csv', 4) if os.path.exists(res + '/b2b_' + t + '.csv') else (None, 0)
    m, _ = per_run(res + '/many_' + t + '.csv', 8) if os.path.exists(res + '/many_' + t + '.csv') else (None, 0)
    e = ext.get(t)
    pct = lambda x: '%+.1f' % ((e - x) / x * 100) if e and x else '-'
    print('%-16s %9s %9s %7s %9s %7s %9s %7s %d' % (t, '%.4f' % n if n else '-', '%.4f' % e if e else '-', pct(n),
                                                  '%.4f' % b if b else '-', pct(b), '%.4f' % m if m else '-', pct(m),
                                                  per))
PY