#!/usr/bin/env bash
# CUPTI against ncu on torch tasks (issue 13): per task and candidate, the torch worker's trace pass (the
# candidate's kernels per run, CUPTI, libkforge_inject.so in its host: trace.candidate.kernel_time_ms median)
# beside ncu's gpu__time_duration.sum per run (--clock-control none; its default cache control flushes before
# every kernel, as the trace pass flushes before every run) of the same candidate run plainly by
# torch_launch.py inside NVTX ranges. Prints one row per candidate.
#   KFORGE_INJECT_LIB=... tests/gpu/tools/torch_ncu_agreement.sh WORKDIR TASK/VARIANT...
set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
RES=$1; shift
mkdir -p "$RES"
for tv in "$@"; do
  t=${tv%%/*} v=${tv#*/}
  ncu --clock-control none --metrics gpu__time_duration.sum --nvtx --nvtx-include "kforge_run/" --csv \
    python3 "$ROOT/tests/gpu/tools/torch_launch.py" "$ROOT/resources/tasks/$t" "$v" --runs 5 \
    > "$RES/ncu_${t}_$(basename "$v").csv" 2> "$RES/ncu_${t}_$(basename "$v").err"
done
python3 - "$ROOT" "$RES" "$@" <<'PY'
import csv, json, os, subprocess, sys
root, res, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
scale = {'ns': 1e-6, 'nsecond': 1e-6, 'us': 1e-3, 'usecond': 1e-3, 'ms': 1.0, 'msecond': 1.0}
def ncu_per_run(path, runs=5):
    rows = list(csv.reader(l for l in open(path) if l.startswith('"')))
    if len(rows) < 2:
        return None, 0
    h = rows[0]
    vi, ui = h.index('Metric Value'), h.index('Metric Unit')
    ms = [float(r[vi].replace(',', '')) * scale.get(r[ui], 1e-6) for r in rows[1:]]
    per = len(ms) // runs
    if per == 0:
        return None, 0
    totals = sorted(sum(ms[i * per:(i + 1) * per]) for i in range(runs))
    return totals[len(totals) // 2], per
w = subprocess.Popen([sys.executable, os.path.join(root, 'torchworker', 'kforge-torch-worker'), '--device', '0'],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
w.stdout.readline()
def ask(**r):
    w.stdin.write(json.dumps(r) + '\n'); w.stdin.flush()
    return json.loads(w.stdout.readline())
print('%-22s %-22s %10s %10s %7s %8s %8s' % ('task', 'candidate', 'ncu_ms', 'cupti_ms', 'diff%', 'k/run', 'judge_ms'))
for tv in pairs:
    t, v = tv.split('/', 1)
    d = os.path.join(root, 'resources', 'tasks', t)
    task = json.load(open(os.path.join(d, 'task.json')))
    ask(op='load', slot='reference', path=os.path.join(d, 'reference.py'))
    ask(op='load', slot='candidate', path=os.path.join(d, v))
    r = ask(op='evaluate', task=task, options={})
    res_ = r.get('result', {})
    tr = res_.get('trace') or {}
    cupti = ((tr.get('candidate') or {}).get('kernel_time_ms') or {}).get('median') if tr.get('available') else None
    judge = ((res_.get('timing') or {}).get('candidate') or {}).get('median_ms')
    n, per = ncu_per_run(os.path.join(res, 'ncu_%s_%s.csv' % (t, os.path.basename(v))))
    diff = '%+.1f' % ((cupti - n) / n * 100) if n and cupti else '-'
    print('%-22s %-22s %10s %10s %7s %8s %8s' % (t, os.path.basename(v), '%.4f' % n if n else '-',
          '%.4f' % cupti if cupti else ('- ' + str(tr.get('problem', ''))[:60]), diff, per,
          '%.4f' % judge if judge else '-'))
ask(op='shutdown')
PY
