#!/usr/bin/env bash
# The adversarial suite (issue 19) on a GPU host without Qt: builds kforge-worker in the Qt-free tree when
# needed, runs `kforge-worker --adversarial` (tests/gpu/adversarial/cases.json, one fresh worker per case)
# and prints the table (case, class, verdict, speedup, flags, expected, ok) at the end.
#   tests/gpu/run_adversarial.sh [OUT] [--case FILE]...     (default OUT: /tmp/kforge-adversarial)
# Files in OUT: build.log, adversarial.log (the runner's progress and the worker's stderr), table.txt.
# Exit status: the runner's (0 every row ok, 1 a row is wrong, 2 no CUDA device).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
OUT=${1:-/tmp/kforge-adversarial}
[[ $# -gt 0 ]] && shift
mkdir -p "$OUT"
B=${KFORGE_GPU_BUILD_DIR:-build-gpu}
WORKER=$B/core/runtime/worker/kforge-worker
if [[ ! -f $B/build.ninja ]]; then
  cmake -S . -B "$B" -G Ninja -DKFORGE_GUI=OFF -DCMAKE_BUILD_TYPE=Release > "$OUT/build.log" 2>&1 || {
    tail -20 "$OUT/build.log"; exit 1; }
fi
cmake --build "$B" --target kforge-worker >> "$OUT/build.log" 2>&1 || { grep -E "error" -A3 "$OUT/build.log" | head -40; exit 1; }
echo "run_adversarial.sh: $(git log -1 --format='%h %s' 2>/dev/null), $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
start=$(date +%s)
"$WORKER" --adversarial tests/gpu/adversarial/cases.json "$@" > "$OUT/table.txt" 2> "$OUT/adversarial.log"
rc=$?
echo "suite: exit $rc after $(( $(date +%s) - start )) s"
if [[ ! -s $OUT/table.txt ]]; then
  # The runner itself died (a kernel that kills its parent reaches the runner only if the judge lets it):
  # the per-case lines of the log are all there is.
  echo "no table: the runner ended with status $rc; its last lines:"
  grep -E "^adversarial|^kforge-worker" "$OUT/adversarial.log" | tail -40
fi
cat "$OUT/table.txt"
exit $rc
