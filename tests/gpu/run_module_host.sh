#!/usr/bin/env bash
# Issue 34's module host on a GPU host without Qt: builds the Qt-free tree's tst_module_host and
# libkforge_hostguard.so, then runs (1) tst_module_host with a CUDA context in the host (the restrictions
# applied after it, a hostile module's attempts refused), (2) tests/torchworker/test_modulehost.py with
# KFORGE_TORCH_DEVICE=0 (CUDA IPC buffers and events lent by the driver, the judge's weights, calls, failures).
# Prints a table last. (kforge-worker judging torch tasks end to end: tests/gpu/run_one_judge.sh.)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
DEADLINE=${DEADLINE:-580}
source tests/gpu/lib.sh
start_run /tmp/kforge-module-host kforge-module-host module_host.log
B=${KFORGE_GPU_BUILD_DIR:-build-gpu}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
python3 -c 'import torch, sys; print("torch", torch.__version__, "python", sys.version.split()[0])'
build() {
  cmake -S . -B "$B" -G Ninja -DKFORGE_GUI=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real \
    -DKFORGE_TORCH_PYTHON="$(command -v python3)" > "$RES/build.log" 2>&1 &&
  cmake --build "$B" -j"$(nproc)" --target tst_module_host kforge_hostguard >> "$RES/build.log" 2>&1 ||
  { tail -30 "$RES/build.log"; return 1; }
}
export -f build
export B RES
# STAGES picks some (default all): build sandbox protocol.
want() { [[ " ${STAGES:-build sandbox protocol} " == *" $1 "* ]]; }
want build && stage build 300 bash -c build
want sandbox && stage sandbox 90 "$B/tests/core/runtime/tst_module_host"
want protocol && stage protocol 200 env KFORGE_TORCH_DEVICE=0 python3 tests/torchworker/test_modulehost.py \
  torchworker/kforge-module-host
echo
echo "=== summary (at $(elapsed)s)"
printf '%-12s %s\n' stage rc
while read -r name rc; do printf '%-12s %s\n' "$name" "$rc"; done < "$RES/stages"
grep -h "module host start" "$OUT/module_host.log" | tail -3
