#!/usr/bin/env bash
# Issue 35 (the judge against the shared GPU) on a GPU host without Qt. Stages (STAGES picks some; default all):
#   build        the Qt-free tree (kforge-worker, libkforge_hostguard.so, kforge-noop.so); reused when built
#   contention   tests/gpu/tools/contention_probe.cu: what the judge's quiet probe sees of a second process's
#                spinning, waiting and stopped work, and what the driver's checkpoint lock does with it
#   adversarial  kforge-worker --adversarial on this issue's cases (ADV_CASES overrides): the GPU hog beside the
#                reference's window (gpu_contention), the hog at load (the memory budget), and the honest cases
#                that must stay clean (a synchronize inside the entry, cudaMallocAsync scratch, a cooperative
#                persistent kernel, a pure-read kernel at its floor, two streams joined)
#   floors       tests/gpu/run_floors_precision.sh (item 7: peaks per dtype, cuBLAS against them, the precision cases)
#   trusted      tests/gpu/run_trusted.sh's self-test, ncu agreement (item 8) and stability stages on TRUSTED_TASKS
#                (default diag_matmul rmsnorm vector_add_f16 torch_matmul_f16; diag_matmul also over 128 sets): the self-test as
#                expected, ncu against the judge per call, 5 evaluations of diag_matmul (max/min speedup <= 1.03,
#                the boundary's cost per evaluation <= 0.3 s)
# A short table is printed last; everything printed also goes to $OUT/judge_hardening.log (OUT default
# /tmp/kforge-judge-hardening). Exit status: 0 every stage that ran passed, 1 otherwise.
#   tests/gpu/run_judge_hardening.sh           (DEADLINE, default 580 s: the summary by then)
#   STAGES="build adversarial" ADV_CASES="t_burn_beside_window.py" tests/gpu/run_judge_hardening.sh
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
DEADLINE=${DEADLINE:-580}
source tests/gpu/lib.sh
start_run /tmp/kforge-judge-hardening kforge-judge-hardening judge_hardening.log
worker_env # B, WORKER, KFORGE_TORCH_PYTHON, CUPTI on LD_LIBRARY_PATH
echo "run_judge_hardening.sh: $(git log -1 --format='%h %s' 2>/dev/null), $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
CASES=${ADV_CASES:-t_burn_beside_window.py a6_hog_at_load.cu h_sync_inside_entry.cu h_malloc_async_scratch.cu h_cooperative_persistent.cu h_read_mse_two_stage.cu th_two_streams_matmul.py h_two_streams_joined.cu th_linear_f16_tensorcore.py}


contention() {
  nvcc -O2 -arch=sm_90 tests/gpu/tools/contention_probe.cu -lcuda -o "$RES/contention_probe" &&
    "$RES/contention_probe" | tee "$OUT/contention.txt"
}

adversarial() {
  local args=() f
  for f in $CASES; do args+=(--case "$f"); done
  "$WORKER" --adversarial tests/gpu/adversarial/cases.json "${args[@]}" > "$OUT/adversarial.txt" 2> "$OUT/adversarial.log"
  local rc=$?
  [[ -s $OUT/adversarial.txt ]] || { echo "no table (runner status $rc):"; tail -30 "$OUT/adversarial.log"; }
  cat "$OUT/adversarial.txt"
  return $rc
}

floors() {
  OUT=$OUT/floors DEADLINE=$(( $(left) - 5 )) KFORGE_GPU_BUILD_DIR=$B tests/gpu/run_floors_precision.sh > /dev/null 2>&1
  local rc=$?
  sed -n '/=== summary/,$p' "$OUT/floors/floors_precision.log" 2>/dev/null
  return $rc
}

trusted() {
  OUT=$OUT/trusted KFORGE_GPU_DEADLINE_S=$(( $(left) - 5 )) KFORGE_GPU_BUILD_DIR=$B \
    STAGES="selftest ncu diag_stability" SELFTEST_TASKS=${TRUSTED_TASKS:-diag_matmul rmsnorm vector_add_f16 torch_matmul_f16} \
    KFORGE_NCU_MANY_SETS=diag_matmul tests/gpu/run_trusted.sh > /dev/null 2>&1
  local rc=$?
  sed -n '/^task /,$p' "$OUT/trusted/ncu.txt" 2>/dev/null
  sed -n '/=== summary/,$p' "$OUT/trusted/summary.txt" 2>/dev/null
  return $rc
}

export -f build_worker contention adversarial floors trusted left elapsed
export B OUT WORKER RES CASES DEADLINE T0
want() { [[ " ${STAGES:-build contention adversarial floors trusted} " == *" $1 "* ]]; }
want build && stage build 360 bash -c build_worker
want contention && stage contention 90 bash -c contention
want adversarial && stage adversarial 400 bash -c adversarial
want trusted && stage trusted 300 bash -c trusted
want floors && stage floors 300 bash -c floors

echo
echo "=== summary (at $(elapsed)s)"
printf '%-12s %s\n' stage rc
status=0
while read -r name rc; do
  printf '%-12s %s\n' "$name" "$rc"
  [[ $rc == 0 ]] || status=1
done < "$RES/stages"
[[ -s $OUT/contention.txt ]] && { echo "contention probe:"; cat "$OUT/contention.txt"; }
if [[ -s $OUT/adversarial.txt ]]; then
  echo "adversarial:"
  grep -E ' (ok|WRONG)$' "$OUT/adversarial.txt" | cut -c1-170
fi
[[ -s $OUT/floors/floors_precision.log ]] && { echo "floors:"; sed -n '/=== summary/,$p' "$OUT/floors/floors_precision.log"; grep -E '^gemm|^  ' "$OUT/floors/floors_precision.log" | head -14; }
[[ -s $OUT/trusted/summary.txt ]] && { echo "trusted:"; cat "$OUT/trusted/ncu.txt" 2>/dev/null | sed -n '/^task /,$p'; cat "$OUT/trusted/summary.txt"; }
exit $status
