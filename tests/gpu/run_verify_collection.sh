#!/usr/bin/env bash
# Issue 36 on a GPU host without Qt: `kforge-cli verify` (the real command, from the Qt bundle) with a kforge-worker
# built here (the Qt-free tree), on the fixture collection and on two throughput sets. Stages:
#   build       the Qt-free tree in $KFORGE_GPU_BUILD_DIR (default build-gpu), unless its worker is there already:
#               kforge-worker, libkforge_hostguard.so, libkforge_moduleprofile.so, kforge-noop.so
#   fixture     verify tests/fixtures/collections (folder of candidates, the kernelbench problems), defaults
#               (held-out sizes, looser tolerances): its summary table and its per-pair times by kind
#   cu          $TP_CU (default 24) distinct .cu candidates (tests/gpu/tools/verify_throughput_collection.py make):
#               every one an nvcc build of its own, built ahead on every core while the worker measures
#   inline      $TP_INLINE (default 12) distinct load_inline ModelNew candidates, each its own CUDA extension build,
#               from an empty extension cache: built ahead by the worker (op prebuild) while it measures
# Printed last: the fixture's summary, then a table per set and kind (pairs, time per pair, pairs a minute by the
# command's wall time against the goals: .cu >= 40, load_inline >= 8 counting the first build) and the stages. A
# load_inline pair whose build was made ahead shows a time per pair of seconds (its evaluation imported the build),
# one built by its own evaluation 30-90 s.
# Needs the bundle: build kforge-cli (any build folder with it, build/ci included), then
#   KFORGE_BUNDLE_BINS=app/cli/kforge-cli tests/gpu/bundle/pack.sh build/ci      (carry .bundle)
#   OUT=/some/dir tests/gpu/run_verify_collection.sh     (DEADLINE, default 470 s: the table by then; VERIFY_ARGS:
#   more arguments for every verify, e.g. "--no-heldout --no-tolerance")
# Everything printed also goes to $OUT/verify_collection.log; each verify's output folder is $OUT/<set>/ (results.csv,
# report.html) and its stdout $OUT/<set>.txt. Exit status: 0 every stage ran and every goal was met, 1 otherwise.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
DEADLINE=${DEADLINE:-470}
source tests/gpu/lib.sh # start_run, elapsed, stage, link_work_main, unpack_bundle
start_run /tmp/kforge-verify-collection kforge-verify verify_collection.log
worker_env # B, WORKER, KFORGE_TORCH_PYTHON, CUPTI on LD_LIBRARY_PATH
export LC_ALL=C
echo "run_verify_collection.sh: $(git log -1 --format='%h %s' 2>/dev/null), $(date -u +%FT%TZ), $(nproc) cores"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
"$KFORGE_TORCH_PYTHON" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' ||
  echo "WARNING: $KFORGE_TORCH_PYTHON has no torch: the problems cannot be imported"
nvcc --version 2>/dev/null | tail -1 || echo "WARNING: no nvcc on PATH"

[ -f .bundle/kforge-qt.tar.xz ] || {
  echo "ERROR: no .bundle/kforge-qt.tar.xz (kforge-cli needs Qt, which this host lacks). Pack it where Qt is:"
  echo "  KFORGE_BUNDLE_BINS=app/cli/kforge-cli tests/gpu/bundle/pack.sh build/ci   and carry .bundle"
  exit 1
}
link_work_main
unpack_bundle # BIN, LD_LIBRARY_PATH with the bundle's Qt, a private XDG home under $RES
CLI=$BIN/kforge-cli
"$CLI" --version >/dev/null 2>&1 || { echo "ERROR: the bundle's kforge-cli does not start here:"; "$CLI" --version; exit 1; }

export -f build_worker
export B OUT WORKER KFORGE_TORCH_PYTHON
if [[ -x $WORKER ]]; then echo "=== build: reusing $WORKER"; else stage build 300 bash -c build_worker; fi
[[ -x $WORKER ]] || { echo "ERROR: no $WORKER (see $OUT/build.log)"; exit 1; }
"$WORKER" --version

# One verify: SET (the output folder's name), then the collection's arguments. Its wall time goes to $RES/SET.wall.
# Every set starts from an empty extension cache and compile cache (the first builds count).
verify() {
  local set=$1 t0 rc
  shift
  export KFORGE_EXTENSION_CACHE=$RES/extcache-$set XDG_CACHE_HOME=$RES/home/cache-$set
  mkdir -p "$XDG_CACHE_HOME"
  t0=$(date +%s.%N)
  echo "$t0" > "$RES/$set.start"
  # shellcheck disable=SC2086
  "$CLI" verify "$@" --out "$OUT/$set" --worker "$WORKER --device 0" ${VERIFY_ARGS:-} > "$OUT/$set.txt" 2>&1
  rc=$?
  awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }' > "$RES/$set.wall"
  tail -25 "$OUT/$set.txt"
  echo "verify $set: exit $rc in $(cat "$RES/$set.wall") s (0 all verified, 1 some records not verifiable, 3 no verdicts)"
  # 1: records that cannot be verified (the fixtures' malformed ones, problems without a candidate) are expected.
  (( rc == 0 || rc == 1 ))
}
export -f verify
export CLI WORKER RES
PROBLEMS=tests/fixtures/collections/kernelbench
python3 tests/gpu/tools/verify_throughput_collection.py make "$RES/tp" --cu "${TP_CU:-24}" --inline "${TP_INLINE:-12}"

# STAGES picks some of fixture, cu, inline (default all three); FIXTURE_S, CU_S, INLINE_S their limits (200, 120,
# 200 s, each cut to what DEADLINE leaves). A verify cut by its limit keeps the pairs it measured (results.jsonl).
want() { [[ " ${STAGES:-fixture cu inline} " == *" $1 "* ]]; }
# A verify cut by its stage's limit wrote no wall time: the time from its start to the cut is its wall time then.
close_wall() {
  [[ -f $RES/$1.start && ! -f $RES/$1.wall ]] || return 0
  awk -v a="$(cat "$RES/$1.start")" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }' > "$RES/$1.wall"
  echo "verify $1: cut by its limit after $(cat "$RES/$1.wall") s; its measured pairs count"
}
want fixture && { stage fixture "${FIXTURE_S:-200}" bash -c "verify fixture tests/fixtures/collections/folder/candidates --problems $PROBLEMS"; close_wall fixture; }
want cu && { stage cu "${CU_S:-120}" bash -c "verify cu $RES/tp/cu --problems $PROBLEMS"; close_wall cu; }
want inline && { stage inline "${INLINE_S:-200}" bash -c "verify inline $RES/tp/inline --problems $PROBLEMS"; close_wall inline; }

echo
echo "=== summary (at $(elapsed)s)"
if [[ -s $OUT/fixture.txt ]]; then
  echo "--- the fixture collection, as kforge-cli verify printed it (its end: the summary):"
  tail -16 "$OUT/fixture.txt"
fi
status=0
specs=()
for s in fixture cu inline; do
  [[ -f $RES/$s.wall ]] && specs+=("$s=$OUT/$s:$(cat "$RES/$s.wall")")
done
echo "--- time per pair and throughput:"
if (( ${#specs[@]} )); then
  python3 tests/gpu/tools/verify_throughput_collection.py table "${specs[@]}" --root "$RES/tp/cu" \
    --root "$RES/tp/inline" || status=1
else
  echo "no verify ran"; status=1
fi
echo "--- stages:"
printf '%-10s %s\n' stage rc
while read -r name rc; do
  printf '%-10s %s\n' "$name" "$rc"
  [[ $rc == 0 ]] || status=1
done < "$RES/stages"
exit $status
