#!/usr/bin/env bash
# The source-level profile (issue 15, worker side) on a GPU host without Qt: builds the Qt-free worker
# (cmake --preset gpu-host), runs the CPU tests of the disassembler and the profile's JSON, then
# tst_source_profile_gpu (pointer chasing: hottest line and stall; cost of the pass; no -lineinfo; the
# disassemble op; every built-in task's good candidate), --self-test's one source-level check (row_sum),
# then one raw protocol session (printf | worker).
# The raw worker replies (fixtures for the client) and the stage logs are packed into ONE tarball,
# $OUT/source_profile.tgz (source_profile/*.json, logs/*): the device returns only a few files. A short table
# is printed last (also $OUT/summary.txt); the whole output is $OUT/run_source_profile.log.
#   OUT=/some/dir tests/gpu/run_source_profile.sh        (default OUT: /tmp/kforge-source-profile)
# KFORGE_GPU_DEADLINE_S (default 230): the summary is printed by then; later stages are cut short.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
OUT=${OUT:-/tmp/kforge-source-profile}
mkdir -p "$OUT"
PACK=$(mktemp -d /tmp/kforge-source-profile.XXXXXX)   # packed into $OUT/source_profile.tgz at the end
FIX=$PACK/source_profile
LOGS=$PACK/logs
mkdir -p "$FIX" "$LOGS"
DEADLINE=${KFORGE_GPU_DEADLINE_S:-230}
T0=$(date +%s)
export PATH="$PATH:/usr/local/cuda/bin"
exec > >(tee "$OUT/run_source_profile.log") 2>&1
B=build/gpu-host
JOBS=$(nproc)

left() { echo $(( DEADLINE - 10 - ($(date +%s) - T0) )); }
# stage NAME MAX_SECONDS COMMAND...: COMMAND under a limit that keeps the deadline.
stage() {
  local name=$1 want=$2 l; shift 2
  l=$(left)
  if (( l < 10 )); then echo "=== $name: SKIPPED (deadline)"; echo "$name skipped" >> "$LOGS/stages.txt"; return 125; fi
  (( want > l )) && want=$l
  echo "=== $name (limit ${want}s, at $(( $(date +%s) - T0 ))s)"
  timeout -k 5 "$want" "$@"
  local rc=$?
  (( rc == 124 || rc == 137 )) && echo "=== $name: TIMED OUT after ${want}s"
  echo "=== $name: rc $rc"
  echo "$name $rc" >> "$LOGS/stages.txt"
  return $rc
}
: > "$LOGS/stages.txt"

echo "run_source_profile.sh in $ROOT, OUT=$OUT, $(date -u +%FT%TZ)"
git log -1 --format='commit %h %s' 2>/dev/null || true
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader || true
grep -H RmProfilingAdminOnly /proc/driver/nvidia/params 2>/dev/null || true
echo "$(nvcc --version 2>/dev/null | tail -1); cuobjdump: $(command -v cuobjdump); nvdisasm: $(command -v nvdisasm)"

stage build 170 bash -c "cmake --preset gpu-host > '$LOGS/build.log' 2>&1 && cmake --build $B -j$JOBS --target \
  kforge-worker tst_disassembler tst_source_profile tst_source_profile_gpu >> '$LOGS/build.log' 2>&1"
BUILD_RC=$?
tail -2 "$LOGS/build.log"
(( BUILD_RC != 0 )) && grep -E "error|FAILED" -A3 "$LOGS/build.log" | head -40
WORKER=$PWD/$B/core/runtime/worker/kforge-worker
export KFORGE_WORKER=$WORKER

if [[ -x $WORKER ]]; then
  stage cpu_tests 40 ctest --test-dir $B -R '^(tst_disassembler|tst_source_profile)$' --output-on-failure \
    > "$LOGS/cpu_tests.log" 2>&1
  grep -E "Test +#|tests passed|FAIL" "$LOGS/cpu_tests.log"

  export KFORGE_SOURCE_PROFILE_OUT=$FIX
  stage gpu_test 150 "$B/tests/core/runtime/tst_source_profile_gpu" > "$LOGS/gpu_test.log" 2>&1
  GPU_RC=$?
  grep -E "^(FAIL|PASS|FAILED|SKIP)|^     " "$LOGS/gpu_test.log" | head -40

  # One raw session as the client speaks it: load, evaluate with the pass (reference too), disassemble.
  session() {
    local so=$PACK/chase.so task
    nvcc -O3 -lineinfo -arch=sm_90 -shared -Xcompiler -fPIC -I"$ROOT/core/runtime/include" -o "$so" \
      "$ROOT/tests/fixtures/tasks/pointer_chase/reference.cu" || return 1
    task=$(python3 -c "import json,sys; print(json.dumps(json.load(open(sys.argv[1]))))" \
      "$ROOT/tests/fixtures/tasks/pointer_chase/task.json")
    {
      printf '{"id":1,"op":"load","slot":"reference","path":"%s"}\n' "$so"
      printf '{"id":2,"op":"load","slot":"candidate","path":"%s"}\n' "$so"
      printf '{"id":3,"op":"evaluate","task":%s,"options":{"trials":2,"min_runs":10,"min_time_ms":0,"trace":false,"metrics":false,"source_profile":true,"source_profile_reference":true}}\n' "$task"
      printf '{"id":4,"op":"disassemble","slot":"candidate"}\n'
      # The worker ends a request whose client went away: keep stdin open until the last reply is there.
      for _ in $(seq 1 300); do grep -q '"id":4' "$FIX/protocol_session.jsonl" 2>/dev/null && break; sleep 0.2; done
      printf '{"id":5,"op":"shutdown"}\n'
    } | "$WORKER" > "$FIX/protocol_session.jsonl"
    rm -f "$so"
    python3 - "$FIX/protocol_session.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("id") == 3 and "result" in m:
        sp = m["result"].get("source_profile", {})
        print("session: evaluate verdict", m["result"].get("verdict"), "source_profile", sp.get("status"),
              "cost_ms", sp.get("cost_ms"), "split", sp.get("cost_split_ms"), "kernels", [(k["side"], k["samples"]) for k in sp.get("kernels", [])],
              sp.get("reason", "")[:200])
    elif m.get("id") == 4:
        print("session: disassemble ok", m.get("ok"), m.get("tool"), m.get("arch"),
              [(c["name"], len(c["sass"])) for c in m.get("cubins", [])], m.get("error", ""))
PY
  }
  # --self-test's one source-level check (the first "good" variant), on one task.
  stage selftest 60 "$WORKER" --self-test --task row_sum > "$LOGS/selftest.txt" 2>&1
  grep -E "source profile|PASSED|FAILED" "$LOGS/selftest.txt"

  stage session 40 bash -c "$(declare -f session); FIX='$FIX' PACK='$PACK' ROOT='$ROOT' WORKER='$WORKER' session"
fi

{
  echo "=== summary ($(( $(date +%s) - T0 ))s)"
  cat "$LOGS/stages.txt"
  grep -E "source profile" "$LOGS/selftest.txt" 2>/dev/null
  grep -E "^session:" "$OUT/run_source_profile.log" 2>/dev/null | cut -c1-300
  grep -E "^overhead:|^cost split|^pointer_chase:|^with trace|^chase_helper_mode" "$LOGS/gpu_test.log" 2>/dev/null
  sed -n '/^task  /,$p' "$LOGS/gpu_test.log" 2>/dev/null
  tar -czf "$OUT/source_profile.tgz" -C "$PACK" source_profile logs
  echo "fixtures: $(ls "$FIX" | wc -l) files, packed with the logs into $OUT/source_profile.tgz ($(du -h "$OUT/source_profile.tgz" | cut -f1))"
} | tee "$OUT/summary.txt"
rm -rf "$PACK"
