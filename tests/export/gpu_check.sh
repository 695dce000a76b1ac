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

case "${1:-}" in
cmake)
    [ $# -ge 2 ] || { sed -n 2,16p "$0"; exit 2; }
    check_cmake "$2" "${3:-10}"
    ;;
torch)
    [ $# -ge 2 ] || { sed -n 2,16p "$0"; exit 2; }
    check_torch "$2"
    ;;
session)
    [ $# -ge 2 ] || { sed -n 2,16p "$0"; exit 2; }
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
*)
    sed -n 2,16p "$0"
    exit 2
    ;;
esac
