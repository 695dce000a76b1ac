#!/bin/sh
# Cross-checks the built-in tasks on a GPU host that has nvcc (and, for the second half, PyTorch) but need
# not have Qt or a configured KForge build: compiles every task kernel in parallel, builds check_tasks,
# runs it (variants against each task's reference, timed), then torch_check.py (every kernel against
# PyTorch), then the built-in torch tasks through kforge-worker ($KFORGE_WORKER, default build/ci's; skipped without
# one). Results and logs go to <out dir>, shared objects and the harness to $KFORGE_SO_DIR (default <out dir>/so).
#   tests/resources/tasks/run_check.sh <out dir> [check_tasks options, e.g. --only diag_matmul,softmax]
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:?usage: run_check.sh <out dir> [check_tasks options]}
shift
arch=${KFORGE_TASKS_ARCH:-sm_90}
PATH=$PATH:/usr/local/cuda/bin
so=${KFORGE_SO_DIR:-$out/so}
mkdir -p "$out" "$so"

for dir in "$root"/resources/tasks/*/; do
    name=$(basename "$dir")
    flags=$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1])).get("nvcc_flags", [])))' \
        "$dir/task.json")
    mkdir -p "$so/$name"
    # A torch task (reference.py) has only its .cu variants compiled: torch_tasks_check.py, below, loads them.
    for src in "$dir"reference.cu "$dir"variants/*.cu; do
        [ -f "$src" ] || continue
        echo "nvcc -O3 -lineinfo -arch=$arch -shared -Xcompiler -fPIC -I$root/core/runtime/include $flags $src" \
             "-o $so/$name/$(basename "$src" .cu).so"
    done
done >"$out/compile.txt"
start=$(date +%s)
xargs -P "$(nproc)" -I{} sh -c '{} || echo "COMPILE FAILED: {}"' <"$out/compile.txt" 2>&1 | tee "$out/compile.log"
nvcc -O2 -std=c++20 -I"$root/core/runtime/include" "$root/tests/resources/tasks/check_tasks.cpp" -o "$so/check_tasks" \
    -ldl -lpthread 2>&1 | tee -a "$out/compile.log"
echo "compiled in $(($(date +%s) - start)) s"

status=0
"$so/check_tasks" --tasks "$root/resources/tasks" --so "$so" --json "$out/check_tasks.json" "$@" \
    2>&1 | tee "$out/check_tasks.txt"
grep -q "ALL AS EXPECTED" "$out/check_tasks.txt" || status=1
if python3 -c 'import torch' 2>/dev/null; then
    PYTHONUNBUFFERED=1 python3 "$root/tests/resources/tasks/torch_check.py" "$root/resources/tasks" "$so" \
        2>&1 | tee "$out/torch_check.txt"
    grep -q "ALL AS EXPECTED" "$out/torch_check.txt" || status=1
    # The built-in torch tasks: every ModelNew and .cu variant through kforge-worker on GPU 0.
    worker=${KFORGE_WORKER:-$root/build/ci/core/runtime/worker/kforge-worker}
    if [ -x "$worker" ]; then
        PYTHONUNBUFFERED=1 python3 "$root/tests/resources/tasks/torch_tasks_check.py" evaluate "$root/resources/tasks" \
            --worker "$worker" --so "$so" --device 0 2>&1 | tee "$out/torch_tasks.txt"
        grep -q "ALL AS EXPECTED" "$out/torch_tasks.txt" || status=1
    else
        echo "SKIP torch_tasks_check.py evaluate: no kforge-worker at $worker (set KFORGE_WORKER)"
    fi
else
    echo "SKIP torch_check.py: no PyTorch"
fi
exit $status
