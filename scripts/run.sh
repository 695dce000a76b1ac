#!/usr/bin/env bash
# The run command: install what is missing, build, and launch KForge on the bundled example task.
# Without a display (a server, CI) it runs under Xvfb. Extra arguments go to kforge.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh" release
app="$here/build/release/app/gui/kforge"
task="$here/resources/tasks/diag_matmul"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "kforge: no display; starting under Xvfb"
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$app" "$@" "$task"
fi
exec "$app" "$@" "$task"
