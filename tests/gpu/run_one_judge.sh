#!/usr/bin/env bash
# Issue 34 (one judge) on a GPU host without Qt: kforge-worker judges PyTorch candidates (ModelNew modules in its
# module host, .cu kernels of torch tasks) as it judges CUDA ones. Stages (STAGES picks some; default all but probe):
#   build        the Qt-free tree: kforge-worker, libkforge_hostguard.so, kforge-noop.so
#   builtin      every built-in torch task with each variant task.json lists, trace and metrics on
#                (tests/gpu/tools/one_judge_driver.py builtin): verdict, speedup, flags, trace/metrics back
#   adversarial  kforge-worker --adversarial with the torch cases of tests/gpu/adversarial/cases.json only, then a
#                sweep for marker files (kfadv*) left in site-packages, the home, /tmp or /dev/shm
#   turnaround   a warm worker, the reference loaded once, 5 candidates (ModelNew, .cu compiled on a miss, ...)
#                loaded and evaluated with the default options (goals: ModelNew <= 1.0 s, .cu <= 1.5 s)
#   deep         the deep check on a module host: torch_diag_matmul's broadcast.py with options deep (every output of
#                every batch, the sanitizer's round on the module host): correct, deep.sanitizer clean
#   probe        (not by default) tests/gpu/tools/torch_cases_probe.py: each torch case's module at the task's
#                size outside the judge, to tell a wrong row of the suite from a module that misbehaves
# A short table is printed last. Everything printed also goes to $OUT/one_judge.log (OUT default
# /tmp/kforge-one-judge); the stages' own logs are $OUT/build.log, builtin.log, adversarial.txt (the runner's
# table), adversarial.log (its progress and the workers' stderr), turnaround.log, probe.log.
#   tests/gpu/run_one_judge.sh                                   (DEADLINE, default 580 s: the summary by then)
#   STAGES="build builtin turnaround" tests/gpu/run_one_judge.sh; STAGES=adversarial tests/gpu/run_one_judge.sh
#   (one call of 10 minutes holds the build and two stages; ADV_CASES="t_x.py th_y.py" runs only those cases)
# The build folder ($KFORGE_GPU_BUILD_DIR, default build-gpu) is reused: a second call with STAGES=adversarial
# on the same machine does not rebuild. Exit status: 0 every stage that ran passed, 1 otherwise.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
DEADLINE=${DEADLINE:-580}
source tests/gpu/lib.sh
start_run /tmp/kforge-one-judge kforge-one-judge one_judge.log
worker_env # B, WORKER, KFORGE_TORCH_PYTHON, CUPTI on LD_LIBRARY_PATH
echo "run_one_judge.sh: $(git log -1 --format='%h %s' 2>/dev/null), $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
"$KFORGE_TORCH_PYTHON" -c 'import sys, torch
try:
    import triton; t = triton.__version__
except ImportError:
    t = "none"
print("torch", torch.__version__, "triton", t, "python", sys.version.split()[0], sys.executable)'
nvcc --version 2>/dev/null | tail -1


# The torch cases of the manifest (their task folder says "kind": "torch"), as --case arguments.
torch_cases() {
  python3 - <<'PY'
import json, os
for c in json.load(open('tests/gpu/adversarial/cases.json'))['cases']:
    spec = json.load(open(os.path.join('resources', 'tasks', c['task'], 'task.json')))
    if spec.get('kind') == 'torch':
        print('--case', c['file'])
PY
}

adversarial() {
  # ADV_CASES="FILE ..." runs those cases instead of every torch case (a run split over two calls).
  local args=() f
  if [[ -n ${ADV_CASES:-} ]]; then for f in $ADV_CASES; do args+=(--case "$f"); done
  else read -ra args <<< "$(torch_cases | tr '\n' ' ')"; fi
  "$WORKER" --adversarial tests/gpu/adversarial/cases.json "${args[@]}" > "$OUT/adversarial.txt" \
    2> "$OUT/adversarial.log"
  local rc=$?
  [[ -s $OUT/adversarial.txt ]] || { echo "no table (runner status $rc):"; grep -E "^adversarial|^kforge-worker" \
    "$OUT/adversarial.log" | tail -30; }
  cat "$OUT/adversarial.txt"
  return $rc
}

# Marker files a sandbox-escape case may have left where the runner's no_file patterns do not look (another
# Python's site-packages, a venv): listed and removed.
sweep() {
  "$KFORGE_TORCH_PYTHON" - <<'PY'
import glob, os, pwd, site, sys
roots = set(site.getsitepackages() + [site.getusersitepackages()] + [p for p in sys.path if p.endswith('-packages')])
roots |= {os.path.expanduser('~'), pwd.getpwuid(os.getuid()).pw_dir, '/tmp', '/dev/shm'}
found = sorted({f for r in roots for f in glob.glob(os.path.join(r, 'kfadv*'))})
for f in found:
    print('LEFT BEHIND by a candidate:', f)
    try:
        os.remove(f)
    except OSError as e:
        print('  cannot remove:', e)
print('sweep: %d marker file(s) outside the sandbox in %d folders' % (len(found), len(roots)))
sys.exit(1 if found else 0)
PY
}

export -f build_worker torch_cases adversarial sweep
export B OUT WORKER RES
want() { [[ " ${STAGES:-build builtin adversarial turnaround deep} " == *" $1 "* ]]; }
# The stages after the build need the worker: without it they are recorded as skipped.
ready() {
  [[ -x $WORKER ]] && return 0
  echo "=== $1: SKIPPED (no $WORKER: run the build stage)"; echo "$1 skipped" >> "$RES/stages"; return 1
}
want build && stage build 360 bash -c build_worker
# BUILTIN_TASKS="torch_row_sum torch_softmax" evaluates only those (a call of 10 minutes holds about 7 tasks: the
# first variant of each, with the metrics pass and a fresh module host, took 27-59 s on the H100), BUILTIN_S its limit.
BUILTIN_ARGS=""
for t in ${BUILTIN_TASKS:-}; do BUILTIN_ARGS+=" --task $t"; done
export BUILTIN_ARGS
want builtin && ready builtin && stage builtin "${BUILTIN_S:-330}" bash -c \
  'python3 tests/gpu/tools/one_judge_driver.py --worker "$WORKER" builtin $BUILTIN_ARGS 2>&1 | tee "$OUT/builtin.log"; exit ${PIPESTATUS[0]}'
want adversarial && ready adversarial && { stage adversarial 560 bash -c adversarial; stage sweep 30 bash -c sweep; }
# The product's compile of the turnaround's .cu on a miss (the driver's nvcc_s is plain nvcc): bench_turnaround
# --compile-only from the bundle, when .bundle carries it (KFORGE_BUNDLE_BINS="app/cli/kforge-cli
# tests/bench/bench_turnaround" tests/gpu/bundle/pack.sh build/ci).
product_compile() {
  [ -f .bundle/kforge-qt.tar.xz ] || { echo "no .bundle carried: the product's compile was not measured"; return 0; }
  link_work_main
  unpack_bundle
  [ -x "$BIN/bench_turnaround" ] || { echo "the bundle has no bench_turnaround: the product's compile was not measured"; return 0; }
  local arch
  arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  "$BIN/bench_turnaround" --compile-only --task torch_diag_matmul --variant rowscale --runs 10 --arch "$arch" 2>&1 | tail -14
}
export -f product_compile unpack_bundle link_work_main
export ROOT
want turnaround && stage product_compile 90 bash -c 'product_compile 2>&1 | tee "$OUT/product_compile.log"'
# The .cu goal counts the product's compile where it was measured, else the driver's plain nvcc.
COMPILE_S=$(sed -n 's/^median miss: \([0-9.]*\) ms.*/\1/p' "$OUT/product_compile.log" 2>/dev/null | awk '{printf "%.3f", $1 / 1000}')
export COMPILE_ARG=${COMPILE_S:+--compile-s $COMPILE_S}
want turnaround && ready turnaround && stage turnaround 150 bash -c \
  'python3 tests/gpu/tools/one_judge_driver.py --worker "$WORKER" turnaround --candidates 5 $COMPILE_ARG 2>&1 |
   tee "$OUT/turnaround.log"; exit ${PIPESTATUS[0]}'
want deep && ready deep && stage deep 200 bash -c \
  'python3 tests/gpu/tools/one_judge_driver.py --worker "$WORKER" eval --task torch_diag_matmul \
     --candidate resources/tasks/torch_diag_matmul/variants/broadcast.py \
     --options "{\"deep\": true, \"trace\": false, \"metrics\": false}" 2>&1 | tee "$OUT/deep.log"; exit ${PIPESTATUS[0]}'
want probe && stage probe 400 bash -c 'python3 tests/gpu/tools/torch_cases_probe.py 2>&1 | tee "$OUT/probe.log"'

echo
echo "=== summary (at $(elapsed)s)"
printf '%-12s %s\n' stage rc
status=0
while read -r name rc; do
  printf '%-12s %s\n' "$name" "$rc"
  [[ $rc == 0 ]] || status=1
done < "$RES/stages"
# Rows of a table whose last column is ok or WRONG (its header row, also ending in "ok", starts with $2).
rows_ending() { grep -E " $1\$" "$3" | grep -vc "^$2 "; }
if [[ -s $OUT/builtin.log ]]; then
  echo "builtin: $(rows_ending ok task "$OUT/builtin.log") ok, $(rows_ending WRONG task "$OUT/builtin.log") wrong" \
    "($(grep -c ': ok; ' "$OUT/builtin.log") progress lines ok, $(grep -c ': WRONG; ' "$OUT/builtin.log") WRONG)"
  grep -E ' WRONG$' "$OUT/builtin.log" | head -10
fi
if [[ -s $OUT/adversarial.txt ]]; then
  echo "adversarial: $(rows_ending ok case "$OUT/adversarial.txt") ok," \
    "$(rows_ending WRONG case "$OUT/adversarial.txt") wrong, $(tail -1 "$OUT/adversarial.txt")"
  grep -E '^  \S+: ' "$OUT/adversarial.txt" | cut -c1-220 | head -12
fi
if [[ -s $OUT/deep.log ]]; then
  echo "deep check on the module host:"
  python3 - "$OUT/deep.log" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
start = text.find('{')
try:
    r = json.loads(text[start:]) if start >= 0 else {}
except ValueError:
    r = {}
print('  verdict %s, flags %s, speedup %s' % (r.get('verdict'), r.get('flags'), (r.get('timing') or {}).get('speedup')))
print('  deep: %s' % json.dumps(r.get('deep'))[:600])
PY
fi
if [[ -s $OUT/turnaround.log ]]; then
  echo "turnaround (s per candidate; verdict_s = load + evaluate until the measured event, judge_s = the whole evaluation):"
  sed -n '/^#  *kind/,$p' "$OUT/turnaround.log"
fi
[[ -s $OUT/product_compile.log ]] && { echo "the product's compile of the .cu (bench_turnaround --compile-only):"; grep -E '^median miss' "$OUT/product_compile.log"; }
exit $status
