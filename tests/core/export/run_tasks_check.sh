#!/usr/bin/env bash
# Issue 18 item 6 on a GPU host without Qt, in one call: does an exported benchmark time like KForge? Runs
# `tests/core/export/gpu_check.sh tasks` (every built-in task plus tests/fixtures/tasks/linear_rowsum: evaluate
# into a session with kforge-cli, export, build, bench, compare) with the kforge-cli and kforge-worker that
# tests/gpu/bundle/pack.sh packed into .bundle/ (carried with the working tree).
#   OUT=/some/dir tests/core/export/run_tasks_check.sh [max-deviation-%] [TASK_DIR...]
# $OUT gets export_tasks.log (the whole run, the table last) and export_tasks.tar (each task's eval, export,
# build and bench output). GPU_CHECK_DEADLINE_S (default 540) keeps it inside one device call.
set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT" || exit 1
source tests/gpu/lib.sh # start_run, link_work_main, unpack_bundle
start_run /tmp/kforge-export-tasks kforge-export-tasks export_tasks.log

echo "run_tasks_check.sh in $ROOT, $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
link_work_main
unpack_bundle
export KFORGE_CLI=$BIN/kforge-cli KFORGE_WORKER=$BIN/kforge-worker
"$KFORGE_WORKER" --version || { echo "the carried kforge-worker does not run here"; exit 1; }

GPU_CHECK_OUT=$RES/work bash tests/core/export/gpu_check.sh tasks "$@"
status=$?
(cd "$RES/work" && tar cf "$OUT/export_tasks.tar" ./*/*.txt 2>/dev/null)
echo "gpu_check.sh tasks: exit $status"
exit $status
