#!/usr/bin/env bash
# The GPU evidence of issue 18 ("rounds that learn") in one device call, on a GPU host without Qt, from the
# programs packed into .bundle/ by tests/gpu/bundle/pack.sh (carried with the working tree):
#   1. rounds: `kforge-cli optimize` on diag_matmul with the task's hand-written variants seeded, two rounds of
#      three candidates against the loopback LLM replay server (tests/gpu/fixtures, scenario "optimize"), with
#      per-candidate exemplar sampling: each candidate's row says which exemplars its prompt held.
#   2. kill: tst_worker_lifetime --gpu: the client of a kforge-worker is killed with SIGKILL while the worker
#      times a slow kernel; the worker must be gone within 0.5 s.
#   3. export: tests/core/export/gpu_check.sh tasks: every built-in task's good variant (and linear_rowsum, whose
#      reference allocates per call) evaluated with kforge-cli, exported as a CMake project, built and
#      benchmarked: the exported speedup must agree with KForge's within 5%. Runs in the time left.
# Pack first (any build folder with these programs, e.g. build/ci):
#   KFORGE_BUNDLE_BINS="app/cli/kforge-cli core/runtime/worker/kforge-worker tests/core/llm/kforge_llm_replay_server" \
#   KFORGE_BUNDLE_PLAIN=tests/core/runtime/tst_worker_lifetime tests/gpu/bundle/pack.sh build/ci
#   4. selftest: kforge-worker --self-test (the built-in tasks' candidates give their expected verdicts).
#   5. ctest_gpu: the Qt-free tree built here (KFORGE_GUI=OFF) and its GPU tests (ctest -L gpu).
#   6. torch: the torch export of diag_matmul's and linear_rowsum's good variants, built (build_ext) and its
#      test run (verification, then timing by the worker's protocol), beside the speedup KForge measured.
#   OUT=/some/dir tests/gpu/run_rounds.sh [TASK_DIR...]   (KFORGE_ROUNDS_DEADLINE_S, default 540;
#   KFORGE_ROUNDS_STAGES, default "rounds kill export": any of rounds kill export selftest ctest_gpu)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
source tests/gpu/lib.sh # start_run, elapsed, stage, link_work_main, unpack_bundle, start_replay_server
start_run /tmp/kforge-rounds-out kforge-rounds run_rounds.log
DEADLINE=${KFORGE_ROUNDS_DEADLINE_S:-540}
STAGES=" ${KFORGE_ROUNDS_STAGES:-rounds kill export} "
want() { [[ $STAGES == *" $1 "* ]]; }

echo "run_rounds.sh in $ROOT, OUT=$OUT, $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
echo "bundle built from $(cat .bundle/commit.txt 2>/dev/null)"
link_work_main
unpack_bundle
export LC_ALL=C XDG_RUNTIME_DIR=$RES/home/run KFORGE_REPLAY_KEY=replay
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
WORKER=$BIN/kforge-worker
export KFORGE_WORKER=$WORKER KFORGE_CLI=$BIN/kforge-cli
"$WORKER" --version || { echo "the carried kforge-worker does not run here"; exit 1; }

# ---- 1. two rounds, an exemplar draw per candidate
if want rounds; then
start_replay_server
SESSION=$RES/diag_matmul-rounds.kforge
stage rounds 200 "$BIN/kforge-cli" optimize resources/tasks/diag_matmul --rounds 2 --candidates 3 --repair 0 \
  --seed-variants --exemplars 2 --exemplar-mode per-candidate --accept-suspicious \
  --endpoint "http://127.0.0.1:$PORT/s/optimize/v1" --model replay-model --api-key-env KFORGE_REPLAY_KEY \
  --session "$SESSION" --worker "$WORKER --device 0" > "$OUT/rounds.txt" 2>&1
cat "$OUT/rounds.txt"
if [ -f "$SESSION" ]; then
  python3 - "$SESSION" > "$OUT/rounds_prompts.txt" 2>&1 <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute('PRAGMA wal_checkpoint(TRUNCATE)')
cols = [r[1] for r in c.execute('PRAGMA table_info(variants)')]
print('variants columns:', ','.join(cols))
try:
    rows = c.execute('SELECT v.id, v.label, v.prompt_id, p.exemplar_ids FROM variants v '
                     'LEFT JOIN prompts p ON p.id = v.prompt_id WHERE v.prompt_id IS NOT NULL ORDER BY v.id').fetchall()
    for r in rows:
        print('variant #%s %s: prompt %s, exemplars %s' % r)
    sets = {r[3] for r in rows}
    print('distinct exemplar sets among %d candidates: %d' % (len(rows), len(sets)))
except sqlite3.Error as e:
    print('could not read prompts:', e)
PY
  cat "$OUT/rounds_prompts.txt"
  cp "$SESSION" "$OUT/"
fi
fi

# ---- 2. the worker dies with its client
LIFETIME=$ROOT/.bundle/tst_worker_lifetime
if ! want kill; then
  :
elif [ -x "$LIFETIME" ]; then
  stage kill 120 "$LIFETIME" --gpu > "$OUT/kill.txt" 2>&1
  cat "$OUT/kill.txt"
else
  echo "no tst_worker_lifetime in the bundle"
fi

# ---- 3. exported benchmarks time like KForge, in the time left
if want selftest; then
  stage selftest 150 "$WORKER" --self-test > "$OUT/selftest.txt" 2>&1
  tail -30 "$OUT/selftest.txt"
fi
if want ctest_gpu; then
  stage gpu_build 240 bash -c "cmake -S . -B build-gpu -G Ninja -DKFORGE_GUI=OFF -DCMAKE_BUILD_TYPE=Release > $RES/gpu_build.log 2>&1 \
    && cmake --build build-gpu -j16 >> $RES/gpu_build.log 2>&1" || tail -30 "$RES/gpu_build.log"
  stage ctest_gpu 200 ctest --test-dir build-gpu -L gpu --output-on-failure > "$OUT/ctest_gpu.txt" 2>&1
  grep -E "Test +#|tests passed|tests failed|worker gone after" "$OUT/ctest_gpu.txt"
fi
if want torch; then
  # Evaluations and tests one at a time (they share the GPU); only the extension builds run side by side.
  torch_eval() {
    local dir=$1 name w id file
    name=$(basename "$dir"); w=$RES/torch/$name; mkdir -p "$w"
    file=$(python3 -c "import json,sys; v=[x for x in json.load(open(sys.argv[1]))['variants'] if x.get('label')=='good']; print(v[0]['file'])" "$dir/task.json")
    "$KFORGE_CLI" eval "$dir" "$dir/$file" --worker "$WORKER --device 0" --no-metrics --session "$w/s.kforge" > "$w/eval.txt" 2>&1
    id=$(sed -n 's/^Recorded as variant \([0-9]*\) in .*/\1/p' "$w/eval.txt" | tail -1)
    "$KFORGE_CLI" export "$w/s.kforge" --variant "$id" --format torch --out "$w/torch" > "$w/export.txt" 2>&1
  }
  torch_all() {
    local t pids=()
    for t in "$@"; do torch_eval "$t"; done
    for t in "$@"; do
      (cd "$RES/torch/$(basename "$t")/torch" && python3 setup.py build_ext --inplace > ../build.txt 2>&1) & pids+=($!)
    done
    wait "${pids[@]}"
    for t in "$@"; do
      local w=$RES/torch/$(basename "$t")
      (cd "$w/torch" && python3 test_*.py > "$w/test.txt" 2>&1)
      echo "== $(basename "$t"): torch export test rc $?"
      grep -iE "^(speedup|verdict)" "$w/eval.txt" | cut -c1-160
      tail -3 "$w/test.txt" 2>/dev/null; [ -s "$w/test.txt" ] || tail -20 "$w/build.txt"
    done
  }
  export -f torch_eval torch_all; export RES WORKER KFORGE_CLI
  stage torch 300 bash -c 'torch_all resources/tasks/diag_matmul tests/fixtures/tasks/linear_rowsum' > "$OUT/torch.txt" 2>&1
  cat "$OUT/torch.txt"
fi
if want export; then
  left=$(( DEADLINE - 20 - $(elapsed) ))
  mkdir -p "$RES/export"
  GPU_CHECK_DEADLINE_S=$left GPU_CHECK_OUT=$RES/export stage export $left bash tests/core/export/gpu_check.sh tasks 5 "$@" \
    > "$OUT/export_tasks.txt" 2>&1
  tail -40 "$OUT/export_tasks.txt"
fi

# ---- summary
S=$OUT/summary.txt
{
  echo "== issue 18 on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(elapsed) s"
  while read -r n rc; do printf '%-12s rc %s\n' "$n" "$rc"; done < "$RES/stages"
  echo "-- rounds (per-candidate exemplars)"
  grep -E '^(Round|R[0-9]|round|Best)|shown' "$OUT/rounds.txt" | cut -c1-200
  grep -E '^distinct' "$OUT/rounds_prompts.txt" 2>/dev/null
  echo "-- kill"
  grep -E 'gone|PASS|FAIL|SKIP' "$OUT/kill.txt" 2>/dev/null | head -8
  echo "-- selftest"
  tail -4 "$OUT/selftest.txt" 2>/dev/null
  echo "-- ctest -L gpu (Qt-free tree)"
  grep -E "tests passed|tests failed|\*\*\*Failed|worker gone after" "$OUT/ctest_gpu.txt" 2>/dev/null
  echo "-- torch export"
  grep -iE "^== |speedup" "$OUT/torch.txt" 2>/dev/null | cut -c1-160
  echo "-- export vs KForge"
  sed -n '/^task /,$p' "$OUT/export_tasks.txt" 2>/dev/null | head -24
} > "$S"
cat "$S"
