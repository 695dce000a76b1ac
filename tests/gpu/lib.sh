# Sourced by the GPU-host scripts (run_all.sh, run_bundle.sh, run_rounds.sh, tests/core/export/run_tasks_check.sh):
# the stage runner that keeps a deadline, and the setup of the programs carried in .bundle/.
# The sourcing script sets ROOT (the repository, also the current folder) and DEADLINE (seconds after T0 by
# which its summary prints); start_run sets T0 (the start, epoch seconds) and RES (a scratch folder). STAGE_RESERVE_S
# (default 15) is kept back for the summary; a stage that would get less than STAGE_MIN_S (default 10)
# seconds is skipped.

# start_run OUT_DEFAULT SCRATCH_PREFIX LOG: OUT (default OUT_DEFAULT) made, RES a fresh /tmp/SCRATCH_PREFIX.*
# folder, T0 now, CUDA's programs on PATH, and everything the script prints also into $OUT/LOG.
start_run() {
  OUT=${OUT:-$1}
  mkdir -p "$OUT"
  T0=$(date +%s)
  RES=$(mktemp -d "/tmp/$2.XXXXXX")
  export PATH="$PATH:/usr/local/cuda/bin" PYTHONUNBUFFERED=1
  exec > >(tee "$OUT/$3") 2>&1
}

elapsed() { echo $(( $(date +%s) - T0 )); }
left() { echo $(( DEADLINE - ${STAGE_RESERVE_S:-15} - $(elapsed) )); }

# stage NAME MAX_SECONDS COMMAND...: runs COMMAND under a limit that keeps the deadline; records its status
# in $RES/stages ("NAME rc", or "NAME skipped").
stage() {
  local name=$1 want=$2 l
  shift 2
  l=$(left)
  if (( l < ${STAGE_MIN_S:-10} )); then
    echo "=== $name: SKIPPED (no time left)"; echo "$name skipped" >> "$RES/stages"; return 125
  fi
  (( want > l )) && want=$l
  echo; echo "=== $name (limit ${want}s, at $(elapsed)s)"
  timeout -k 5 "$want" "$@"
  local rc=$?
  (( rc == 124 || rc == 137 )) && echo "=== $name: TIMED OUT after ${want}s"
  echo "=== $name: rc $rc (at $(elapsed)s)"
  echo "$name $rc" >> "$RES/stages"
  return $rc
}

# The bundle's programs were built with the repository at /work/main (kernel header, built-in tasks,
# templates, fixtures): point /work/main at this tree, unless a real folder is there.
link_work_main() {
  [ "$ROOT" = /work/main ] && return 0
  if [ -e /work/main ] && [ ! -L /work/main ]; then
    echo "/work/main exists and is not a link: compiled-in paths may point at another tree"
  else
    mkdir -p /work && ln -sfn "$ROOT" /work/main
  fi
}

# The Qt programs tests/gpu/bundle/pack.sh packed into .bundle/, unpacked into $RES/bundle (BIN) with their
# libraries and plugins, offscreen, with a private home under $RES/home. Ends the script where there is no bundle.
unpack_bundle() {
  [ -f .bundle/kforge-qt.tar.xz ] || { echo "no .bundle/kforge-qt.tar.xz: run tests/gpu/bundle/pack.sh and carry .bundle"; exit 1; }
  tar xJf .bundle/kforge-qt.tar.xz -C "$RES"
  BIN=$RES/bundle
  export LD_LIBRARY_PATH=$BIN/lib:/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export QT_PLUGIN_PATH=$BIN/plugins QT_QPA_PLATFORM=offscreen
  export XDG_CONFIG_HOME=$RES/home/config XDG_CACHE_HOME=$RES/home/cache XDG_DATA_HOME=$RES/home/data
  mkdir -p "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_DATA_HOME"
}

# The loopback LLM server from the bundle ($BIN) on tests/gpu/fixtures: it prints "port N" and lives while its
# stdin (fd 7 here) stays open; stopped when the script exits. Sets SERVER_PID and PORT (empty if it never said).
start_replay_server() {
  mkfifo "$RES/server.in"
  "$BIN/kforge_llm_replay_server" tests/gpu/fixtures < "$RES/server.in" > "$RES/server.port" 2> "$RES/server.err" &
  SERVER_PID=$!
  exec 7> "$RES/server.in"
  trap 'exec 7>&-; kill $SERVER_PID 2>/dev/null' EXIT
  for _ in $(seq 50); do grep -q '^port ' "$RES/server.port" 2>/dev/null && break; sleep 0.1; done
  PORT=$(sed -n 's/^port //p' "$RES/server.port")
  echo "replay server on port ${PORT:-NONE} $(cat "$RES/server.err")"
}

# worker_env: B (the build folder: $KFORGE_GPU_BUILD_DIR, default build-gpu), WORKER (its kforge-worker), and what
# every worker run needs: KFORGE_TORCH_PYTHON (python3 on PATH unless set), no .pyc files, CUPTI's libraries.
worker_env() {
  B=${KFORGE_GPU_BUILD_DIR:-build-gpu}
  WORKER=$PWD/$B/core/runtime/worker/kforge-worker
  export KFORGE_TORCH_PYTHON=${KFORGE_TORCH_PYTHON:-$(command -v python3)} PYTHONDONTWRITEBYTECODE=1
  export LD_LIBRARY_PATH=/usr/local/cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
}

# build_worker: the Qt-free worker (kforge-worker, libkforge_hostguard.so, kforge-noop.so) in $B, its log in
# $OUT/build.log: a build folder that has the worker is only brought up to date (REBUILD=1 configures afresh).
# Needs B, OUT, WORKER and KFORGE_TORCH_PYTHON; export -f it with the stage functions that call it.
build_worker() {
  if [[ -x $WORKER && -z ${REBUILD:-} ]]; then
    cmake --build "$B" -j"$(nproc)" --target kforge-worker kforge_hostguard kforge_noop > "$OUT/build.log" 2>&1 ||
      { grep -E "error|FAILED" -A3 "$OUT/build.log" | head -40; return 1; }
    return 0
  fi
  cmake -S . -B "$B" -G Ninja -DKFORGE_GUI=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real \
    -DKFORGE_TORCH_PYTHON="$KFORGE_TORCH_PYTHON" > "$OUT/build.log" 2>&1 &&
  cmake --build "$B" -j"$(nproc)" --target kforge-worker kforge_hostguard kforge_noop >> "$OUT/build.log" 2>&1 ||
  { grep -E "error|FAILED" -A3 "$OUT/build.log" | head -40; tail -5 "$OUT/build.log"; return 1; }
}
