#!/usr/bin/env bash
# One-shot GPU check of the profiler on the H200 machine: build (full tree, or the standalone profiler
# project if the full tree does not configure), run the profiler tests (gpu label included), the benchmark,
# ncu's gpu__time_duration beside our traced times, and the degrade path under ncu / compute-sanitizer.
#   tests/core/runtime/profiler/gpu_check.sh [outdir]
set -u
cd "$(dirname "$0")/../../../.."
OUT=${1:-${OUT:-/tmp/kforge-profiler-check}}
mkdir -p "$OUT"
LOG="$OUT/gpu_check.log"
exec > >(tee "$LOG") 2>&1
export PYTHONUNBUFFERED=1
export PATH="$PATH:/usr/local/cuda/bin"
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
grep -i RmProfilingAdminOnly /proc/driver/nvidia/params 2>/dev/null || true

TARGETS="kforge_profiler kforge_inject kforge_inject_target bench_profiler tst_profiler_trace tst_profiler_roofline \
tst_profiler_occupancy tst_profiler_degrade tst_profiler_metricconfig tst_profiler_gpu_trace tst_profiler_gpu_metrics \
tst_profiler_inject"
B=build-gpu
if cmake -S . -B $B -G Ninja -DKFORGE_GUI=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/configure.log" 2>&1; then
  echo "configured the full tree"
else
  echo "full tree did not configure (tail below); using the standalone profiler project"
  tail -15 "$OUT/configure.log"
  B=build-gpu-profiler
  cmake -S tests/core/runtime/profiler/standalone -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
fi
cmake --build $B -j16 --target $TARGETS > "$OUT/build.log" 2>&1 || { grep -E "error|Error" -A3 "$OUT/build.log" | head -60; exit 1; }
echo "build ok ($(( $(date +%s) - T0 )) s)"

ctest --test-dir $B -R profiler --output-on-failure --timeout 300 2>&1 | tee "$OUT/ctest.log" | grep -vE "^\s*$"

BENCH=$(find $B -name bench_profiler -type f -executable | head -1)
echo; echo "=== bench_profiler"; "$BENCH" 2>&1 | tee "$OUT/bench.log"

echo; echo "=== ncu --clock-control none --metrics gpu__time_duration.sum (same kernels, no KForge CUPTI)"
if command -v ncu >/dev/null; then
  timeout 180 ncu --clock-control none --metrics gpu__time_duration.sum --csv -k "regex:scale_kernel|rowscale_kernel" \
    "$BENCH" --ncu-workload > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
  python3 - "$OUT/ncu.csv" "$OUT/bench.log" <<'PY'
import csv, sys, statistics, re
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
hdr, data = rows[0], rows[1:]
ki, mi, vi, ui = hdr.index("Kernel Name"), hdr.index("Metric Name"), hdr.index("Metric Value"), hdr.index("Metric Unit")
scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1, "usecond": 1, "ms": 1e3, "msecond": 1e3}
per = {}
for r in data:
    if r[mi] == "gpu__time_duration.sum":
        per.setdefault("rowscale" if "rowscale" in r[ki] else "scale", []).append(float(r[vi].replace(",", "")) * scale.get(r[ui], 1))
traced = {}
for line in open(sys.argv[2]):
    m = re.match(r"TRACED (.*) ([0-9.]+)$", line.strip())
    if m: traced["rowscale" if "rowscale" in m.group(1) else "scale"] = float(m.group(2))
print(f"{'kernel':10} {'ncu mean us':>12} {'traced us':>10} {'diff %':>8}")
for k, v in per.items():
    n, t = statistics.mean(v), traced.get(k, float('nan'))
    print(f"{k:10} {n:12.2f} {t:10.2f} {100*(t/n-1):+8.2f}")
PY
else
  echo "ncu not found"
fi

echo; echo "=== degrade: the same process under ncu and under compute-sanitizer"
timeout 120 ncu --clock-control none -c 1 "$BENCH" --status 2>&1 | grep -E "STATUS|==ERROR" | head -3
timeout 120 compute-sanitizer --print-limit 1 "$BENCH" --status 2>&1 | grep -E "STATUS|ERROR" | head -3
echo "total $(( $(date +%s) - T0 )) s"
