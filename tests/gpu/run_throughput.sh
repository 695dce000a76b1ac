#!/usr/bin/env bash
# The GPU evidence of issue 16 (throughput) in one device call, on a GPU host without Qt, from the programs
# packed into .bundle/ by tests/gpu/bundle/pack.sh (carried with the working tree):
#   1. bench_throughput: 40 distinct candidates over the built-in tasks into real sessions through one warm
#      kforge-worker, in the modes when-they-pay and always; a line per candidate as it finishes (verdict, the
#      milliseconds of each stage), candidates/minute, the time split, and the stability of diag_matmul's good
#      variant (5 evaluations, max/min); each mode cut at KFORGE_THROUGHPUT_MODE_S (default 180).
#   2. eval: `kforge-cli eval` of one task's variants in one call (one worker for all), with its summary.
# Pack first (any build folder with these programs, e.g. build/ci); kforge-worker is built here (Qt-free tree)
# when the bundle has none that runs (packing the worker's kforge-noop.so fails in qt-runtime-bundle.sh today):
#   KFORGE_BUNDLE_BINS="app/cli/kforge-cli tests/bench/bench_throughput" tests/gpu/bundle/pack.sh build/ci
#   OUT=/some/dir tests/gpu/run_throughput.sh      (KFORGE_THROUGHPUT_DEADLINE_S, default 540)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
source tests/gpu/lib.sh # start_run, elapsed, stage, link_work_main, unpack_bundle
start_run /tmp/kforge-throughput-out kforge-throughput run_throughput.log
DEADLINE=${KFORGE_THROUGHPUT_DEADLINE_S:-540}

echo "run_throughput.sh in $ROOT, OUT=$OUT, $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
echo "$(nvcc --version 2>/dev/null | tail -1); $(nproc) cores; bundle built from $(cat .bundle/commit.txt 2>/dev/null)"
link_work_main
unpack_bundle
export LC_ALL=C XDG_RUNTIME_DIR=$RES/home/run
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
WORKER=$BIN/kforge-worker
if ! "$WORKER" --version 2>/dev/null; then
  echo "no carried kforge-worker that runs here; building it (KFORGE_GUI=OFF)"
  stage worker_build 240 bash -c "cmake -S . -B build-gpu -G Ninja -DKFORGE_GUI=OFF -DKFORGE_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=Release > $RES/worker_build.log 2>&1 && cmake --build build-gpu -j16 --target kforge-worker \
    >> $RES/worker_build.log 2>&1" || { tail -30 "$RES/worker_build.log"; exit 1; }
  WORKER=$ROOT/build-gpu/core/runtime/worker/kforge-worker
  "$WORKER" --version || exit 1
fi

# ---- 1. the benchmark: a line per candidate as it finishes; each mode stops queueing at its deadline
# (KFORGE_THROUGHPUT_MODE_S, default 180 s) and prints figures over what finished ("partial: K of N").
MODE_S=${KFORGE_THROUGHPUT_MODE_S:-180}
stage bench 420 "$BIN/bench_throughput" --worker "$WORKER --device 0" --count 40 --repeat 5 \
  --modes when-they-pay,always --deadline-s "$MODE_S,$MODE_S" --grace-s 10 --out "$RES/sessions" \
  > "$OUT/bench_throughput.txt" 2>&1
cat "$OUT/bench_throughput.txt"

# ---- 2. several candidates in one kforge-cli eval call
T=resources/tasks/softmax
stage eval 90 "$BIN/kforge-cli" eval "$T" "$T"/variants/*.cu "$T/reference.cu" --worker "$WORKER --device 0" \
  --session "$RES/eval.kforge" > "$OUT/eval_several.txt" 2>&1
tail -12 "$OUT/eval_several.txt"

echo "== summary"
grep -E "^== mode|candidates/minute|partial:|worker busy|stability:|metrics follow-ups" "$OUT/bench_throughput.txt" \
  | tee "$OUT/summary.txt"
grep -E "candidates in .* per minute" "$OUT/eval_several.txt" | tee -a "$OUT/summary.txt"
cat "$RES/stages" 2>/dev/null | tee -a "$OUT/summary.txt"
