#!/usr/bin/env bash
# Issue 19 (the judge and the candidate host) on a GPU host without Qt: builds the Qt-free tree, runs the
# runtime CPU tests, the worker GPU tests (tst_worker_gpu, tst_worker_lifetime_gpu, tst_sandbox --gpu when
# built), kforge-worker --self-test, then a stability check of 5 evaluations of diag_matmul's good variant
# through one raw protocol session (speedup, K, crossing, isolation, wall time per evaluation). Logs in $OUT;
# a short table last (also $OUT/summary.txt).
#   OUT=/some/dir tests/gpu/run_trusted.sh        (default OUT: /tmp/kforge-trusted)
# KFORGE_GPU_DEADLINE_S (default 540): the summary prints by then; later stages are cut short or skipped.
# STAGES picks some (default all: build cpu_tests worker_gpu lifetime_gpu sandbox_gpu selftest ncu diag_stability);
# SELFTEST_TASKS="diag_matmul rmsnorm" limits the self-test (and so the ncu table) to those tasks. The stability
# session: DIAG_OPTIONS adds options to its 5 evaluations ('"samples":true' prints each side's per-round series),
# DIAG_TRACE_FIRST=0 leaves the trace pass off in the first (on by default).
#   STAGES="selftest ncu diag_stability" SELFTEST_TASKS=diag_matmul tests/gpu/run_trusted.sh   (a worker built)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
source tests/gpu/lib.sh # start_run, elapsed, left, stage
start_run /tmp/kforge-trusted kforge-trusted-res run_trusted.log
B=${KFORGE_GPU_BUILD_DIR:-build-gpu}
DEADLINE=${KFORGE_GPU_DEADLINE_S:-540}
STAGE_RESERVE_S=20 STAGE_MIN_S=15
: > "$RES/stages"
want() { [[ " ${STAGES:-build cpu_tests worker_gpu lifetime_gpu sandbox_gpu selftest ncu diag_stability} " == *" $1 "* ]]; }

echo "run_trusted.sh in $ROOT, OUT=$OUT, $(date -u +%FT%TZ)"
git log -1 --format='commit %h %s' 2>/dev/null || true
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader || true
echo "kernel $(uname -r); $(nvcc --version 2>/dev/null | tail -1)"

want build && stage build 300 bash -c "cmake -S . -B $B -G Ninja -DKFORGE_GUI=OFF -DCMAKE_BUILD_TYPE=Release > '$OUT/build.log' 2>&1 \
  && cmake --build $B -j$(nproc) --target kforge-worker kforge_noop tst_worker_protocol tst_worker_lifetime tst_candidate_host tst_host_trace \
     tst_worker_gpu tst_inputs_gpu tst_adversarial tst_source_profile_gpu \$(grep -q tst_sandbox $B/build.ninja 2>/dev/null && echo tst_sandbox) >> '$OUT/build.log' 2>&1"
BUILD_RC=$?
[[ -f $OUT/build.log ]] && tail -2 "$OUT/build.log"
(( BUILD_RC != 0 )) && want build && grep -E "error|FAILED" -A3 "$OUT/build.log" | head -40
WORKER=$PWD/$B/core/runtime/worker/kforge-worker
export KFORGE_WORKER=$WORKER

if [[ -x $WORKER ]]; then
  want cpu_tests && stage cpu_tests 90 ctest --test-dir $B -R '^(tst_worker_protocol|tst_worker_lifetime|tst_candidate_host|tst_host_trace|tst_sandbox)$' --output-on-failure \
    > "$OUT/cpu_tests.log" 2>&1
  want cpu_tests && grep -E "Test +#|tests passed" "$OUT/cpu_tests.log"

  want worker_gpu && stage worker_gpu 240 "$B/tests/core/runtime/tst_worker_gpu" > "$OUT/worker_gpu.log" 2>&1
  want worker_gpu && grep -E "^(FAIL|PASS|SKIP)|stability|crash:|crashed|timeout" "$OUT/worker_gpu.log" | head -40

  if [[ ${KFORGE_SKIP_LIFETIME:-0} != 1 ]] && want lifetime_gpu; then
    stage lifetime_gpu 120 stdbuf -oL "$B/tests/core/runtime/tst_worker_lifetime" --gpu > "$OUT/lifetime_gpu.log" 2>&1
    tail -5 "$OUT/lifetime_gpu.log"
  fi
  if [[ -x $B/tests/core/runtime/tst_sandbox ]] && want sandbox_gpu; then
    stage sandbox_gpu 60 "$B/tests/core/runtime/tst_sandbox" --gpu > "$OUT/sandbox_gpu.log" 2>&1
    tail -3 "$OUT/sandbox_gpu.log"
  fi

  ONLY=()
  for t in ${SELFTEST_TASKS:-}; do ONLY+=(--task "$t"); done
  if want selftest; then
    stage selftest 180 "$WORKER" --self-test "${ONLY[@]}" > "$OUT/selftest.txt" 2>&1
    grep -vE "^self-test: " "$OUT/selftest.txt" | tail -30
  fi
  if command -v ncu >/dev/null && want ncu; then
    KFORGE_NCU_TASKS=${KFORGE_NCU_TASKS:-${SELFTEST_TASKS:-}} \
      stage ncu 280 bash tests/gpu/tools/ncu_agreement.sh "$WORKER" "$OUT/selftest.txt" "$RES/ncu" > "$OUT/ncu.txt" 2>&1
    cat "$OUT/ncu.txt"
  fi

  # Stability: 5 evaluations of diag_matmul good in one worker (default timing options), raw protocol.
  diag_session() {
    local d=$ROOT/resources/tasks/diag_matmul ref=$RES/diag_ref.so good=$RES/diag_good.so task
    for f in reference.cu:$ref variants/rowscale.cu:$good; do
      nvcc -O3 -lineinfo -arch=sm_90 -shared -Xcompiler -fPIC -I"$ROOT/core/runtime/include" -lcublas \
        -o "${f#*:}" "$d/${f%%:*}" || return 1
    done
    task=$(python3 -c "import json,sys; print(json.dumps(json.load(open(sys.argv[1]))))" "$d/task.json")
    {
      printf '{"id":1,"op":"load","slot":"reference","path":"%s"}\n' "$ref"
      printf '{"id":2,"op":"load","slot":"candidate","path":"%s"}\n' "$good"
      for i in 3 4 5 6 7; do
        printf '{"id":%d,"op":"evaluate","task":%s,"options":{"trace":%s,"metrics":false%s}}\n' "$i" "$task" \
          "$([ $i = 3 ] && [ "${DIAG_TRACE_FIRST:-1}" != 0 ] && echo true || echo false)" "${DIAG_OPTIONS:+,$DIAG_OPTIONS}"
      done
      printf '{"id":8,"op":"shutdown"}\n'
    } | "$WORKER" > "$RES/diag.jsonl" 2> "$RES/diag.err"
  }
  T_DIAG=$(date +%s.%N)
  want diag_stability && stage diag_stability 150 bash -c "$(declare -f diag_session); ROOT=$ROOT RES=$RES WORKER=$WORKER DIAG_OPTIONS='${DIAG_OPTIONS:-}' DIAG_TRACE_FIRST='${DIAG_TRACE_FIRST:-1}' diag_session"
  T_DIAG=$(python3 -c "import time; print(round(time.time() - $T_DIAG, 1))")
  cp "$RES/diag.jsonl" "$OUT/diag.jsonl" 2>/dev/null
  tail -5 "$RES/diag.err" 2>/dev/null
fi

{
  echo; echo "=== summary (run_trusted.sh, $(elapsed)s)"
  while read -r name rc; do printf '%-16s %s\n' "$name" "$([ "$rc" = 0 ] && echo ok || echo "rc $rc")"; done < "$RES/stages"
  python3 - "$OUT/diag.jsonl" "${T_DIAG:-0}" <<'PY'
import json, sys
rows = []
try:
    for line in open(sys.argv[1]):
        m = json.loads(line)
        if "result" in m:
            rows.append(m["result"])
except OSError:
    pass
print("diag_matmul good, 5 evaluations (%s s for the session):" % sys.argv[2])
print("%-4s %-9s %9s %11s %11s %5s %5s %8s %11s %11s %7s  %s" % ("#", "verdict", "speedup", "ref_ms", "cand_ms", "K", "Kref",
      "batches", "crossing_ms", "boundary_ms", "eval_s", "flags"))
sp = []
for i, r in enumerate(rows):
    t = r.get("timing", {})
    s = t.get("speedup", 0)
    if s:
        sp.append(s)
    print("%-4d %-9s %9.2f %11.4f %11.4f %5s %5s %8s %11.4f %11.1f %7.2f  %s" % (i + 1, r.get("verdict"), s,
          t.get("reference", {}).get("median_ms", 0), t.get("candidate", {}).get("median_ms", 0),
          t.get("batch_calls", "-"), t.get("reference_batch_calls", "-"), t.get("batches", "-"),
          t.get("crossing_ms", 0), t.get("boundary_ms", 0), sum(r.get("phases_s", {}).values()),
          ",".join(r.get("flags", []))))
if sp:
    print("max/min speedup %.4f (issue bar <= 1.03)" % (max(sp) / min(sp)))
# With DIAG_OPTIONS='"samples":true': each side's per-round series (where the noise lives: spread, drift, runs).
def series(xs):
    if len(xs) < 4:
        return "-"
    s = sorted(xs); n = len(xs); m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    ac = sum((xs[i] - m) * (xs[i + 1] - m) for i in range(n - 1)) / ((n - 1) * var) if var > 0 else 0
    q = lambda f: s[min(n - 1, int(f * (n - 1) + 0.5))]
    hi = sum(1 for x in xs if x > 1.1 * q(0.5))
    return "n %d p10 %.4f p50 %.4f p90 %.4f max %.4f cv %.3f lag1 %.2f >1.1med %d first5 %s last5 %s" % (
        n, q(0.1), q(0.5), q(0.9), s[-1], var ** 0.5 / m, ac, hi,
        ",".join("%.4f" % x for x in xs[:5]), ",".join("%.4f" % x for x in xs[-5:]))
for i, r in enumerate(rows):
    t = r.get("timing", {})
    a = t.get("adaptive", {})
    for side in ("candidate", "reference"):
        xs = t.get(side, {}).get("samples_ms")
        if xs:
            print("#%d %-9s stop %-8s %s" % (i + 1, side, a.get("stopped_by", "-"), series(xs)))
if rows:
    iso = rows[0].get("isolation", {}).get("candidate", {})
    print("isolation (candidate):", json.dumps({k: v for k, v in iso.items() if k != "notes"}))
    print("notes:", "; ".join(iso.get("notes", [])))
    if "timing" in rows[0]:
        print("self_median_ms (trace pass of #1): %s" % rows[0]["timing"].get("self_median_ms"))
        print("boundary_ms_per_round: %s" % rows[0]["timing"].get("boundary_ms_per_round"))
PY
} | tee "$OUT/summary.txt"
