#!/usr/bin/env bash
# Packs what tests/gpu/run_bundle.sh runs on a GPU host without Qt into <repo>/.bundle/ (git-ignored; name it
# in the device call's `carry`): kforge-cli, kforge-worker, the loopback LLM replay server, bench_turnaround
# and gui_shots with their Qt libraries (shared/tools/qt-runtime-bundle.sh), plus fonts and a fonts.conf for
# readable offscreen screenshots. Build first (Release; gui_shots comes from tests/gpu/bundle/hook.cmake):
#   cmake -S . -B .bundle-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
#         -DCMAKE_PROJECT_KForge_INCLUDE=$PWD/tests/gpu/bundle/hook.cmake
#   cmake --build .bundle-build --target kforge-worker kforge-cli kforge_llm_replay_server bench_turnaround gui_shots
#   tests/gpu/bundle/pack.sh [build-dir]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
B=${1:-$ROOT/.bundle-build}
PACKER=${QT_RUNTIME_BUNDLE:-$ROOT/../shared/tools/qt-runtime-bundle.sh}
[ -f "$PACKER" ] || PACKER=/work/shared/tools/qt-runtime-bundle.sh
DEST=$ROOT/.bundle
rm -rf "$DEST"
mkdir -p "$DEST/fonts"
bins=("$B/app/cli/kforge-cli" "$B/core/runtime/worker/kforge-worker" "$B/tests/core/llm/kforge_llm_replay_server"
      "$B/tests/bench/bench_turnaround" "$B/gui_shots")
# KFORGE_BUNDLE_BINS="path ..." (relative to the build folder) packs those programs instead, e.g. for
# tests/gpu/run_rounds.sh, which needs no gui_shots (so any build folder will do, build/ci included).
if [ -n "${KFORGE_BUNDLE_BINS:-}" ]; then
  bins=()
  for f in $KFORGE_BUNDLE_BINS; do bins+=("$B/$f"); done
fi
for f in "${bins[@]}"; do
  [ -x "$f" ] || { echo "missing $f: build it first (see the header of $0)" >&2; exit 1; }
done
# Without their debug information (a RelWithDebInfo build's programs are 60-80 MB each; the carry limit is 64 MiB).
stripped=$(mktemp -d)
trap 'rm -rf "$stripped"' EXIT
for f in "${bins[@]}"; do
  cp "$f" "$stripped/" && strip --strip-debug "$stripped/$(basename "$f")"
done
# The worker times every batch against the no-op library it looks for beside itself.
if [ -f "$stripped/kforge-worker" ] && [ -f "$B/core/runtime/worker/kforge-noop.so" ]; then
  cp "$B/core/runtime/worker/kforge-noop.so" "$stripped/"
fi
bash "$PACKER" "$DEST/kforge-qt.tar.xz" "$stripped"/*
# KFORGE_BUNDLE_PLAIN="path ...": Qt-free programs (no library to pack) copied into .bundle/ as they are.
for f in ${KFORGE_BUNDLE_PLAIN:-}; do
  cp "$B/$f" "$DEST/" && strip --strip-debug "$DEST/$(basename "$f")"
done
for f in DejaVuSans.ttf DejaVuSans-Bold.ttf DejaVuSansMono.ttf DejaVuSansMono-Bold.ttf; do
  cp /usr/share/fonts/truetype/dejavu/$f "$DEST/fonts/"
done
cat > "$DEST/fonts.conf" <<'CONF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir prefix="relative">fonts</dir>
  <cachedir>/tmp/kforge-fontconfig-cache</cachedir>
  <alias><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
  <alias><family>monospace</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
</fontconfig>
CONF
git -C "$ROOT" log -1 --format='%H %s' > "$DEST/commit.txt" 2>/dev/null || true
du -sh "$DEST"
