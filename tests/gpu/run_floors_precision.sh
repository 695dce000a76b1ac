#!/usr/bin/env bash
# Issue 35, item 7 (floors per kind of kernel and dtype, the precision contract) on a GPU host without Qt.
# Stages:
#   build        the Qt-free tree (kforge-worker, libkforge_hostguard.so, kforge-noop.so), when $B has no worker
#   peaks        the worker's measured peaks (device_info): copy and read bandwidth, FP32 FMA, the mma.sync tensor
#                peaks f16, bf16, tf32, fp8 (e4m3)
#   gemm         torch's own GEMMs (cuBLAS: WGMMA on sm_90) at 8192^3 in f16, bf16 and tf32, against the probe's peak
#                of that dtype: above 1/0.90 of it, an honest cuBLAS GEMM of an f16/bf16 task would be flagged
#                beats_flop_floor (the floor's peak is the higher of the mma.sync probe and the datasheet rate), WARN
#   adversarial  kforge-worker --adversarial on this item's cases: the honest pure-read kernel at its floor
#                (mse_loss), the precision cases (half and TF32 inside torch_gemm_bias_gelu and torch_matmul), and
#                honest GEMMs beside them (cuBLAS SGEMM, the two-stream matmul module)
# A short table is printed last; everything printed also goes to $OUT/floors_precision.log (OUT default
# /tmp/kforge-floors-precision), the runner's table to $OUT/adversarial.txt, its progress to adversarial.log.
#   tests/gpu/run_floors_precision.sh              (DEADLINE, default 300 s: the summary by then)
#   STAGES="peaks gemm" tests/gpu/run_floors_precision.sh; ADV_CASES="t_gemm_half_inside.py" ...
# Exit status: 0 every stage that ran passed, 1 otherwise.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
DEADLINE=${DEADLINE:-300}
source tests/gpu/lib.sh
start_run /tmp/kforge-floors-precision kforge-floors-precision floors_precision.log
set +e # the stages' failures are recorded by stage(), not fatal
worker_env # B, WORKER, KFORGE_TORCH_PYTHON, CUPTI on LD_LIBRARY_PATH
[[ -n $KFORGE_TORCH_PYTHON ]] || { echo "no python3 on PATH"; exit 1; }
echo "run_floors_precision.sh: $(git log -1 --format='%h %s' 2>/dev/null), $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
command -v nvcc > /dev/null || { echo "no nvcc on PATH (looked in /usr/local/cuda/bin too)"; exit 1; }


peaks() {
  printf '{"id": 1, "op": "device_info"}\n{"op": "shutdown"}\n' | "$WORKER" > "$OUT/device_info.jsonl" \
    2> "$OUT/device_info.err" || { echo "kforge-worker failed:"; tail -20 "$OUT/device_info.err"; return 1; }
  python3 - "$OUT/device_info.jsonl" "$OUT/peaks.json" <<'PY'
import json, sys
reply = None
for line in open(sys.argv[1]):
    try:
        obj = json.loads(line)
    except ValueError:
        continue
    if obj.get('id') == 1:
        reply = obj
if not reply or not reply.get('ok'):
    sys.exit('no device_info reply: %s' % (reply or open(sys.argv[1]).read()[:500]))
d = reply['result']['device'] if 'device' in reply.get('result', {}) else reply['result']
t = d.get('peak_tensor_gflops') or {}
rows = [('copy (read+write)', d.get('peak_copy_gbps'), 'GB/s'), ('read only', d.get('peak_read_gbps'), 'GB/s'),
        ('fp32 fma', d.get('peak_fma_gflops'), 'GFLOP/s'), ('f16 mma.sync', t.get('f16'), 'GFLOP/s'),
        ('bf16 mma.sync', t.get('bf16'), 'GFLOP/s'), ('tf32 mma.sync', t.get('tf32'), 'GFLOP/s'),
        ('fp8 e4m3 mma.sync', t.get('fp8_e4m3'), 'GFLOP/s')]
print('device: %s (%s)' % (d.get('name'), d.get('arch')))
for name, v, unit in rows:
    print('  %-20s %12s %s' % (name, '%.1f' % v if isinstance(v, (int, float)) else 'missing', unit))
if d.get('peak_copy_gbps') and d.get('peak_read_gbps'):
    print('  read / copy: %.3f' % (d['peak_read_gbps'] / d['peak_copy_gbps']))
spec = d.get('peak_tensor_spec_gflops') or {}
for k in ('f16', 'bf16'):
    print('  %-20s %12s GFLOP/s' % (k + ' datasheet', '%.1f' % spec[k] if spec.get(k) else 'missing'))
json.dump({'copy': d.get('peak_copy_gbps'), 'read': d.get('peak_read_gbps'), 'fp32': d.get('peak_fma_gflops'),
           **{k: t.get(k) for k in ('f16', 'bf16', 'tf32', 'fp8_e4m3')},
           **{k + '_spec': spec.get(k) for k in ('f16', 'bf16')}}, open(sys.argv[2], 'w'))
missing = [name for name, v, _ in rows[:6] if not v]
sys.exit('missing peaks: %s' % ', '.join(missing) if missing else 0)
PY
}

gemm() {
  "$KFORGE_TORCH_PYTHON" - "$OUT/peaks.json" <<'PY'
import json, sys
import torch
peaks = json.load(open(sys.argv[1])) if len(sys.argv) > 1 else {}
n = 8192
status = 0
for name, dtype, tf32 in (('f16', torch.float16, False), ('bf16', torch.bfloat16, False), ('tf32', torch.float32, True)):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    a = torch.randn(n, n, device='cuda', dtype=dtype)
    b = torch.randn(n, n, device='cuda', dtype=dtype)
    for _ in range(3):
        a @ b
    torch.cuda.synchronize()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    best = None
    for _ in range(10):
        start.record()
        a @ b
        stop.record()
        stop.synchronize()
        ms = start.elapsed_time(stop)
        best = ms if best is None else min(best, ms)
    gflops = 2 * n ** 3 / (best * 1e6)
    probe = peaks.get(name) or 0
    floor = max(probe, peaks.get(name + '_spec') or 0)  # the FLOP floor's peak (floors.h: the higher of the two)
    ratio = gflops / floor if floor else float('nan')
    verdict = 'ok' if floor and ratio <= 1 / 0.90 else 'WARN'
    if name == 'tf32':
        verdict = 'info'  # no task dtype is judged against TF32
    elif verdict == 'WARN':
        status = 1
    print('gemm %-5s torch %9.0f GFLOP/s, probe %9.0f (%.3f of it), floor peak %9.0f: %.3f of it %s'
          % (name, gflops, probe, gflops / probe if probe else float('nan'), floor, ratio, verdict))
sys.exit(status)
PY
}

adversarial() {
  local args=() f
  local cases=${ADV_CASES:-"h_read_mse_two_stage.cu h_cublas_sgemm.cu t_gemm_half_inside.py t_gemm_tf32_inside.py t_matmul_bf16.py t_matmul_allow_tf32.py th_linear_f16_tensorcore.py"}
  for f in $cases; do args+=(--case "$f"); done
  "$WORKER" --adversarial "$ROOT/tests/gpu/adversarial/cases.json" "${args[@]}" > "$OUT/adversarial.txt" \
    2> "$OUT/adversarial.log"
  local rc=$?
  [[ -s $OUT/adversarial.txt ]] || { echo "no table (runner status $rc):"; tail -30 "$OUT/adversarial.log"; }
  cat "$OUT/adversarial.txt"
  grep -E "precision|Precision" "$OUT/adversarial.log" | cut -c1-300 | head -20
  return $rc
}

export -f build_worker peaks gemm adversarial
export B OUT WORKER RES ROOT
want() { [[ " ${STAGES:-build peaks gemm adversarial} " == *" $1 "* ]]; }
ready() {
  [[ -x $WORKER ]] && return 0
  echo "=== $1: SKIPPED (no $WORKER: run the build stage)"; echo "$1 skipped" >> "$RES/stages"; return 1
}
want build && stage build 240 bash -c build_worker
want peaks && ready peaks && stage peaks 60 bash -c peaks
want gemm && stage gemm 60 bash -c gemm
want adversarial && ready adversarial && stage adversarial 240 bash -c adversarial

echo
echo "=== summary (at $(elapsed)s)"
printf '%-12s %s\n' stage rc
status=0
while read -r name rc; do
  printf '%-12s %s\n' "$name" "$rc"
  [[ $rc == 0 ]] || status=1
done < "$RES/stages"
if [[ -s $OUT/peaks.json ]]; then
  echo "peaks: $(cat "$OUT/peaks.json")"
fi
if [[ -s $OUT/adversarial.txt ]]; then
  echo "adversarial rows: $(grep -cE ' ok$' "$OUT/adversarial.txt") ok, $(grep -cE ' WRONG$' "$OUT/adversarial.txt") wrong"
  grep -E ' WRONG$' "$OUT/adversarial.txt" | cut -c1-200 | head -10
fi
exit $status
