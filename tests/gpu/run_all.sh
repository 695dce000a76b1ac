#!/usr/bin/env bash
# Every GPU figure of issues 3 (evaluation engine) and 4 (CUPTI) in one go, for a GPU host without Qt:
# builds the Qt-free tree, runs the runtime/profiler tests, kforge-worker --self-test, bench_worker
# (stability, traced kernel time, profiler overhead), ncu on plain `kforge-worker --launch` runs of every
# task's good candidate, and bench_profiler. Full logs go to $OUT (at most 8 files); a short table is
# printed at the end (also $OUT/summary.txt).
#   OUT=/some/dir tests/gpu/run_all.sh        (default OUT: /tmp/kforge-gpu-check)
# KFORGE_GPU_DEADLINE_S (default 440): seconds after the start by which the summary must be printed;
# stages that would run past it are cut short or skipped, and the table says so.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
source tests/gpu/lib.sh # start_run, elapsed, left, stage
start_run /tmp/kforge-gpu-check kforge-gpu-res run_all.log # RES: intermediate JSON and helper logs (not sent back)
B=${KFORGE_GPU_BUILD_DIR:-build-gpu}   # the build folder (relative to the repository root)
DEADLINE=${KFORGE_GPU_DEADLINE_S:-440}
STAGE_RESERVE_S=20 STAGE_MIN_S=15   # seconds kept for the summary; the shortest stage worth starting

echo "run_all.sh in $ROOT, OUT=$OUT, $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader || true
git log -1 --format='commit %h %s' 2>/dev/null || true
echo "kernel $(uname -r); $(nvcc --version 2>/dev/null | tail -1); $(ncu --version 2>/dev/null | tail -1)"
# GPU clocks, power and throttle reasons every 250 ms for the whole run (for the stability figures).
SMI_FIELDS=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu
for reasons in clocks_event_reasons.active clocks_throttle_reasons.active; do
  if nvidia-smi --query-gpu=$reasons --format=csv,noheader >/dev/null 2>&1; then SMI_FIELDS=$SMI_FIELDS,$reasons; break; fi
done
nvidia-smi --query-gpu=$SMI_FIELDS --format=csv -lms 250 > "$OUT/smi.csv" 2>/dev/null &
SMI_PID=$!
trap 'kill $SMI_PID 2>/dev/null' EXIT

stage build 300 bash -c "cmake -S . -B $B -G Ninja -DKFORGE_GUI=OFF -DCMAKE_BUILD_TYPE=Release && cmake --build $B -j16" \
  > "$OUT/build.log" 2>&1
BUILD_RC=$?
tail -3 "$OUT/build.log"
WORKER=$B/core/runtime/worker/kforge-worker
BENCH=$B/tests/core/runtime/bench_worker
if (( BUILD_RC != 0 )) || [[ ! -x $WORKER ]]; then
  grep -E "error|Error|FAILED" -A3 "$OUT/build.log" | head -40
fi
export KFORGE_WORKER=$PWD/$WORKER
SO=$RES/so

if [[ -x $WORKER ]]; then
  stage ctest_cpu 60 ctest --test-dir $B -LE gpu -j8 --output-on-failure > "$OUT/ctest.log" 2>&1
  grep -E "Test +#|tests passed" "$OUT/ctest.log"

  stage selftest 150 "$WORKER" --self-test > "$OUT/selftest.txt" 2>&1
  grep -vE "^self-test: " "$OUT/selftest.txt" | tail -40
fi

if [[ -x $BENCH ]]; then
  # Stability: the shipped defaults, then longer warm-up and more samples (both sides alternate every run).
  {
  stage stability_default 60 "$BENCH" --so-dir "$SO" --json "$RES/stab_default.json" stability --name default
  stage stability_warm 60 "$BENCH" --so-dir "$SO" --json "$RES/stab_warm.json" stability --name warm1s \
    --warmup-ms 1000 --min-time-ms 1000
  stage stability_long 90 "$BENCH" --so-dir "$SO" --json "$RES/stab_long.json" stability --name 1000runs \
    --warmup-ms 1000 --min-time-ms 1000 --min-runs 1000
  # The same as the default, with the trace pass after timing: each evaluation's traced kernel time
  # against its event time tells GPU-side from host-side changes of the reference.
  stage stability_traced 60 "$BENCH" --so-dir "$SO" --json "$RES/stab_traced.json" stability --name default+trace --trace
  # The reference alone in fresh processes, with the device's stream-ordered pool as it is (freed memory
  # returned at each synchronize) and kept (as a caching allocator would): its cudaMallocAsync per call.
  refmodes() {
    local so=$SO/diag_matmul/reference.so
    [[ -f $so ]] || { echo "no $so"; return 1; }
    for keep in "" --keep-pool "" --keep-pool "" --keep-pool; do
      "$WORKER" --launch "$ROOT/resources/tasks/diag_matmul" "$so" --runs 300 $keep 2>&1 | grep "event ms"
    done
  }
  stage refmodes 60 bash -c "$(declare -f refmodes); SO='$SO' WORKER='$WORKER' ROOT='$ROOT' refmodes" | tee "$RES/refmodes.log"
  stage traced 150 "$BENCH" --so-dir "$SO" --json "$RES/traced.json" traced --trace-runs 20 --evals 3
  } 2>&1 | tee "$OUT/bench.log"

  # ncu on plain runs of the same .so files: one ncu, one `kforge-worker --launch` process per task.
  if [[ -s $RES/traced.json ]] && command -v ncu >/dev/null; then
    python3 - "$RES/traced.json" "$ROOT/resources/tasks" "$PWD/$WORKER" "$RES/launch.log" > "$RES/launch_all.sh" <<'PY'
import json, shlex, sys
d = json.load(open(sys.argv[1]))
for t in d["tasks"]:
    print(f'{shlex.quote(sys.argv[3])} --launch {shlex.quote(sys.argv[2] + "/" + t["task"])} {shlex.quote(t["so"])} '
          f'--runs 21 2>> {shlex.quote(sys.argv[4])}')
PY
    stage ncu 150 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv \
      --target-processes all bash "$RES/launch_all.sh" > "$OUT/ncu.csv" 2> "$RES/ncu.err"
    tail -5 "$RES/ncu.err"; grep -E "^launch|kforge-worker" "$RES/launch.log" | cut -c1-200
  fi

  # "lean": the default metric set without sm__throughput and gpu__compute_memory_throughput (8 and 5
  # passes alone), to show what the pass count costs.
  LEAN=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
  LEAN=$LEAN,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
  LEAN=$LEAN,lts__t_sector_hit_rate.pct,sm__cycles_elapsed.avg.per_second
  LEAN=$LEAN,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
  LEAN=$LEAN,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
  stage overhead 150 "$BENCH" --so-dir "$SO" --json "$RES/overhead.json" overhead --reps 4 --lean-metrics "$LEAN" \
    2>&1 | tee -a "$OUT/bench.log"
fi

if [[ -x $WORKER ]]; then
  stage ctest_gpu 180 ctest --test-dir $B -L gpu -V > "$RES/ctest_gpu.log" 2>&1
  cat "$RES/ctest_gpu.log" >> "$OUT/ctest.log"
  grep -E "Test +#|tests passed|FAIL" "$RES/ctest_gpu.log" | head -30
  grep -E "worker gone after" "$RES/ctest_gpu.log" # tst_worker_lifetime_gpu: client killed mid-evaluation
fi

BENCH_PROFILER=$(find $B -name bench_profiler -type f -executable 2>/dev/null | head -1)
if [[ -n $BENCH_PROFILER ]]; then
  stage bench_profiler 90 "$BENCH_PROFILER" 2>&1 | tee -a "$OUT/bench.log" | grep -vE "^  metrics"
fi

kill $SMI_PID 2>/dev/null
echo; echo "total $(elapsed) s"
python3 "$ROOT/tests/gpu/summary.py" "$RES" "$OUT" | tee "$OUT/summary.txt"
sleep 1 # let tee write the end of the log
