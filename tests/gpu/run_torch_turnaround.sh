#!/usr/bin/env bash
# Issue 13's turnaround figures on a GPU host without Qt: builds libkforge_inject.so (the torch worker's CUPTI
# trace pass) in the Qt-free tree, then runs tests/bench/torch_turnaround.py once per argument group; groups are
# separated by "--", e.g.
#   tests/gpu/run_torch_turnaround.sh --tasks all --reps 2 -- --tasks torch_diag_matmul --options '{"trace": false}'
# Each group's output is also written to $OUT/turnaround_N.log (OUT default /tmp/kforge-torch-turnaround).
# KFORGE_PRODUCT_CASES="task:variant ..." (with .bundle carried: tests/gpu/bundle/pack.sh with
# KFORGE_BUNDLE_BINS="app/cli/kforge-cli tests/bench/bench_turnaround") first runs the product's path for each
# case: bench_turnaround (KForge's compiler, the pool, back to back; KFORGE_PRODUCT_RUNS, default 5).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
OUT=${OUT:-/tmp/kforge-torch-turnaround}
mkdir -p "$OUT"
B=${KFORGE_GPU_BUILD_DIR:-build-gpu}
export PATH="$PATH:/usr/local/cuda/bin" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
python3 -c 'import torch; print("torch", torch.__version__)'
if ! { cmake -S . -B "$B" -G Ninja -DKFORGE_GUI=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/kforge-torch-build.log 2>&1 &&
       cmake --build "$B" -j"$(nproc)" --target kforge_inject >> /tmp/kforge-torch-build.log 2>&1; }; then
  tail -30 /tmp/kforge-torch-build.log; exit 1
fi
export KFORGE_INJECT_LIB=$PWD/$B/core/runtime/profiler/libkforge_inject.so
export LD_LIBRARY_PATH=/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ -n "${KFORGE_PRODUCT_CASES:-}" ]; then
  source tests/gpu/lib.sh  # link_work_main, unpack_bundle
  RES=$(mktemp -d /tmp/kforge-torch-product.XXXXXX)
  link_work_main
  (
    unpack_bundle
    export KFORGE_TORCH_WORKER=$ROOT/torchworker/kforge-torch-worker KFORGE_TORCH_PYTHON=python3
    for c in $KFORGE_PRODUCT_CASES; do
      echo "=== product path: ${c%%:*} ${c#*:}"
      "$BIN/bench_turnaround" --task "${c%%:*}" --variant "${c#*:}" --runs "${KFORGE_PRODUCT_RUNS:-5}" \
        --worker "kforge-worker --device 0" 2>&1 | tee -a "$OUT/product.log"
    done
  )
fi
echo "=== host boot, forked against spawned"
python3 tests/bench/torch_host_boot.py --device cuda:0 --reps 5 2>&1 | tee "$OUT/host_boot.log"
n=0 args=()
run_group() {
  n=$((n + 1))
  echo "=== group $n: ${args[*]}"
  python3 tests/bench/torch_turnaround.py "${args[@]}" 2>&1 | tee "$OUT/turnaround_$n.log"
}
for a in "$@"; do
  if [ "$a" = "--" ]; then run_group; args=(); else args+=("$a"); fi
done
[ ${#args[@]} -gt 0 ] && run_group
exit 0
