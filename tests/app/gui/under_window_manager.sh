#!/usr/bin/env bash
# Runs a GUI test on a real X server with a window manager that frames windows (Xvfb and openbox at 1280×800):
# the title bar and borders come some time after a window shows, which the offscreen platform never has.
#   under_window_manager.sh TEST [ARGS...]
# Exit 77 (SKIP) without Xvfb or openbox (scripts/setup.sh installs both).
set -u
command -v Xvfb >/dev/null && command -v openbox >/dev/null || { echo "SKIP: needs Xvfb and openbox"; exit 77; }
dir=$(mktemp -d)
exec 3>"$dir/display"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp >"$dir/xvfb.log" 2>&1 &
xvfb=$!
openbox_pid=
cleanup() {
  [ -n "$openbox_pid" ] && kill "$openbox_pid" 2>/dev/null
  kill "$xvfb" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
for _ in $(seq 100); do [ -s "$dir/display" ] && break; sleep 0.1; done
[ -s "$dir/display" ] || { echo "Xvfb did not start:"; cat "$dir/xvfb.log"; exit 1; }
export DISPLAY=":$(head -1 "$dir/display")"
# openbox runs its --startup command once it manages the screen.
openbox --startup "touch $dir/ready" >"$dir/openbox.log" 2>&1 &
openbox_pid=$!
for _ in $(seq 100); do [ -e "$dir/ready" ] && break; sleep 0.1; done
[ -e "$dir/ready" ] || { echo "openbox did not start:"; cat "$dir/openbox.log"; exit 1; }
QT_QPA_PLATFORM=xcb "$@"
