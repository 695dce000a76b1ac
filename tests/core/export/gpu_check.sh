#!/usr/bin/env bash
# GPU check of KForge exports (run on the GPU host; nothing here needs KForge's own build except `session`).
#
#   gpu_check.sh cmake <exported-cmake-dir> [max-deviation-%]
#       configure + build the export, run its test (must exit 0) and its benchmark; the benchmark's speedup
#       must be within max-deviation-% (default 10) of the speedup KForge measured (printed by the bench).
#   gpu_check.sh torch <exported-torch-dir>
#       python3 setup.py build_ext --inplace && python3 test_<task>.py (must exit 0)
#   gpu_check.sh session <session.kforge> [variant|best] [max-deviation-%]
#       export the variant in both formats with kforge-cli ($KFORGE_CLI, or kforge-cli on PATH) into a
#       temporary folder, then run both checks above.
#   gpu_check.sh tasks [max-deviation-%] [TASK_DIR...]
#       does the exported benchmark agree with KForge on every task? Default tasks: every built-in task
#       (resources/tasks) and tests/fixtures/tasks/linear_rowsum (its reference allocates 64 MiB with
#       cudaMallocAsync per call). Per task: `kforge-cli eval --session` of its `good` variant (else its
#       first one expected correct) with the worker "$KFORGE_WORKER --device 0", then `kforge-cli export`
#       of that variant as cmake; the exports build in parallel, then each bench runs alone on the GPU, once
#       as exported and once with --release-pool (CUDA's default pool, i.e. without the fix). Prints a table
#       (task, KForge speedup, exported speedup, difference, PASS within max-deviation-%, default 5) and
#       exits 1 when a task fails. GPU_CHECK_DEADLINE_S (default 540) stops evaluating new tasks in time;
#       GPU_CHECK_OUT keeps the sessions, exports and logs (default: a temporary folder).
# Exit status 0 when every check passes.
set -euo pipefail

say() { printf '\n== %s\n' "$*"; }

check_cmake() {
    local dir=$1 tolerance=${2:-10}
    local build="$dir/build-gpu-check"
    say "cmake export: $dir"
    local gen=()
    command -v ninja >/dev/null && gen=(-G Ninja)
    cmake -S "$dir" -B "$build" -DCMAKE_BUILD_TYPE=Release "${gen[@]}"
    cmake --build "$build" -j "$(nproc)"
    local test_bin bench_bin
    test_bin=$(find "$build" -maxdepth 1 -type f -name 'test_*' -perm -u+x | head -n1)
    bench_bin=$(find "$build" -maxdepth 1 -type f -name 'bench_*' -perm -u+x | head -n1)
    [ -n "$test_bin" ] && [ -n "$bench_bin" ] || { echo "no test_/bench_ program in $build"; return 1; }
    say "$(basename "$test_bin")"
    "$test_bin"
    say "$(basename "$bench_bin")"
    local out
    out=$("$bench_bin")
    printf '%s\n' "$out"
    local deviation
    deviation=$(printf '%s\n' "$out" | sed -n 's/^speedup vs KForge: \([-+0-9.]*\)%$/\1/p')
    if [ -z "$deviation" ]; then
        echo "the export carries no KForge measurement to compare with; speedup not checked"
        return 0
    fi
    if awk -v d="$deviation" -v t="$tolerance" 'BEGIN { exit !(d <= t && d >= -t) }'; then
        echo "OK: speedup within ${tolerance}% of KForge's (${deviation}%)"
    else
        echo "FAIL: speedup differs from KForge's by ${deviation}% (allowed ${tolerance}%)"
        return 1
    fi
}

check_torch() {
    local dir=$1
    say "torch export: $dir"
    (cd "$dir" && python3 setup.py build_ext --inplace && python3 test_*.py)
}

# The variant of a task folder the check exports: label good, else the first one expected correct.
pick_variant() {
    python3 - "$1/task.json" <<'PY'
import json, sys
variants = json.load(open(sys.argv[1])).get("variants", [])
correct = [v for v in variants if v.get("expect", {}).get("verdict", "correct") == "correct"]
good = [v for v in correct if v.get("label") == "good"]
print((good or correct or [{"file": ""}])[0]["file"])
PY
}

# One task: evaluate, record, export (the build runs later, in parallel). Writes $work/<task>/state.
prepare_task() {
    local dir=$1 work=$2 cli=$3 worker=$4
    local name file
    name=$(basename "$dir")
    mkdir -p "$work/$name"
    file=$(pick_variant "$dir")
    if [ -z "$file" ]; then
        echo "no variant expected correct" > "$work/$name/state"
        return
    fi
    # C locale: the "Recorded as variant N" line is read below.
    if ! LC_ALL=C.UTF-8 LANGUAGE= "$cli" eval "$dir" "$dir/$file" --worker "$worker" --no-metrics --session "$work/$name/session.kforge" \
        > "$work/$name/eval.txt" 2>&1; then
        echo "kforge-cli eval failed (see eval.txt)" > "$work/$name/state"
        return
    fi
    local id
    id=$(sed -n 's/^Recorded as variant \([0-9]*\) in .*/\1/p' "$work/$name/eval.txt" | tail -1)
    if [ -z "$id" ] || ! LC_ALL=C.UTF-8 "$cli" export "$work/$name/session.kforge" --variant "$id" --format cmake \
        --out "$work/$name/cmake" > "$work/$name/export.txt" 2>&1; then
        echo "kforge-cli export failed (see export.txt)" > "$work/$name/state"
        return
    fi
    echo "exported $file as variant $id" > "$work/$name/state"
}

build_task() {
    local export=$1 log=$2
    local gen=()
    command -v ninja >/dev/null && gen=(-G Ninja)
    { cmake -S "$export" -B "$export/build" -DCMAKE_BUILD_TYPE=Release "${gen[@]}" &&
        cmake --build "$export/build" -j 4; } > "$log" 2>&1
}

# "speedup    12.345x" and "KForge measured on ...: ..., speedup 12.000x" from a bench's output.
bench_speedup() { sed -n 's/^speedup *\([0-9.]*\)x$/\1/p' "$1" | tail -1; }
kforge_speedup() { sed -n 's/^KForge measured on .*, speedup \([0-9.]*\)x$/\1/p' "$1" | tail -1; }

check_tasks() {
    set +e # a failing task is a row of the table, not the end of the check
    local tolerance=5
    if [ $# -gt 0 ] && [[ $1 =~ ^[0-9.]+$ ]]; then tolerance=$1; shift; fi
    local root
    root=$(cd "$(dirname "$0")/../../.." && pwd)
    local tasks=("$@")
    if [ ${#tasks[@]} -eq 0 ]; then
        tasks=("$root"/resources/tasks/*/ "$root/tests/fixtures/tasks/linear_rowsum")
    fi
    local cli=${KFORGE_CLI:-$(command -v kforge-cli || true)}
    [ -n "$cli" ] || { echo "set KFORGE_CLI to the kforge-cli executable"; return 2; }
    local worker="${KFORGE_WORKER:-kforge-worker} --device 0"
    local work=${GPU_CHECK_OUT:-$(mktemp -d)}
    mkdir -p "$work"
    local deadline=$(( $(date +%s) + ${GPU_CHECK_DEADLINE_S:-540} ))
    local names=() dir name
    for dir in "${tasks[@]}"; do
        dir=${dir%/}
        name=$(basename "$dir")
        if [ ! -f "$dir/reference.cu" ] && [ -f "$dir/reference.py" ]; then
            echo "skip $name: a torch task (kforge-worker evaluates CUDA tasks only)"
            continue
        fi
        names+=("$name")
        # Evaluations one at a time (they share the GPU); each export builds in the background meanwhile.
        if (( $(date +%s) + 60 > deadline )); then
            mkdir -p "$work/$name" && echo "skipped: out of time" > "$work/$name/state"
            continue
        fi
        say "$name: kforge-cli eval --session, export"
        prepare_task "$dir" "$work" "$cli" "$worker"
        cat "$work/$name/state"
        if [ -f "$work/$name/cmake/CMakeLists.txt" ]; then
            while (( $(jobs -rp | wc -l) >= 4 )); do wait -n || true; done
            build_task "$work/$name/cmake" "$work/$name/build.txt" &
        fi
    done
    wait
    local status=0 kf ex rel verdict
    for name in "${names[@]}"; do
        local bench
        bench=$(find "$work/$name/cmake/build" -maxdepth 1 -type f -name 'bench_*' -perm -u+x 2>/dev/null | head -n1)
        [ -n "$bench" ] || continue
        (( $(date +%s) + 10 > deadline )) && { echo "skipped: out of time" > "$work/$name/state"; continue; }
        say "$name: $(basename "$bench")"
        "$bench" > "$work/$name/bench.txt" 2>&1 && cat "$work/$name/bench.txt"
        "$bench" --release-pool > "$work/$name/bench_release.txt" 2>&1
    done
    echo
    printf '%-28s %10s %10s %8s %12s  %s\n' task "KForge" exported diff "no pool" result
    for name in "${names[@]}"; do
        kf=$(kforge_speedup "$work/$name/bench.txt" 2>/dev/null)
        ex=$(bench_speedup "$work/$name/bench.txt" 2>/dev/null)
        local nopool
        nopool=$(bench_speedup "$work/$name/bench_release.txt" 2>/dev/null)
        if [ -z "$kf" ] || [ -z "$ex" ]; then
            local why
            why=$(cat "$work/$name/state" 2>/dev/null)
            [ -f "$work/$name/cmake/CMakeLists.txt" ] && [ -z "$ex" ] && why="build or bench failed (see $work/$name)"
            printf '%-28s %10s %10s %8s %12s  FAIL: %s\n' "$name" - - - - "${why:-not run}"
            status=1
            continue
        fi
        rel=$(awk -v a="$ex" -v b="$kf" 'BEGIN { printf "%+.1f", 100 * (a / b - 1) }')
        local nopoolrel=-
        [ -n "$nopool" ] && nopoolrel=$(awk -v a="$nopool" -v b="$kf" 'BEGIN { printf "%+.1f%%", 100 * (a / b - 1) }')
        if awk -v d="$rel" -v t="$tolerance" 'BEGIN { exit !(d <= t && d >= -t) }'; then
            verdict=PASS
        else
            verdict=FAIL
            status=1
        fi
        printf '%-28s %9.3fx %9.3fx %7s%% %12s  %s\n' "$name" "$kf" "$ex" "$rel" "$nopoolrel" "$verdict"
    done
    echo "(diff: exported speedup against KForge's, PASS within ${tolerance}%; no pool: the same bench with"
    echo " --release-pool, CUDA's default pool, as exports measured before; sessions, exports, logs in $work)"
    return $status
}

case "${1:-}" in
cmake)
    [ $# -ge 2 ] || { sed -n 2,26p "$0"; exit 2; }
    check_cmake "$2" "${3:-10}"
    ;;
torch)
    [ $# -ge 2 ] || { sed -n 2,26p "$0"; exit 2; }
    check_torch "$2"
    ;;
session)
    [ $# -ge 2 ] || { sed -n 2,26p "$0"; exit 2; }
    cli=${KFORGE_CLI:-$(command -v kforge-cli || true)}
    [ -n "$cli" ] || { echo "set KFORGE_CLI to the kforge-cli executable"; exit 2; }
    session=$2 variant=${3:-best} tolerance=${4:-10}
    work=$(mktemp -d)
    "$cli" export "$session" --variant "$variant" --format cmake --out "$work/cmake"
    "$cli" export "$session" --variant "$variant" --format torch --out "$work/torch"
    status=0
    check_cmake "$work/cmake" "$tolerance" || status=1
    check_torch "$work/torch" || status=1
    say "exports left in $work"
    exit $status
    ;;
tasks)
    shift
    check_tasks "$@"
    ;;
*)
    sed -n 2,26p "$0"
    exit 2
    ;;
esac
