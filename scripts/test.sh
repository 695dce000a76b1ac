#!/usr/bin/env bash
# The test command: install what is missing, build with warnings as errors, and run the whole test suite.
# GPU tests (label gpu) print SKIP where no GPU is present. Extra arguments go to ctest.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh" ci
cd "$here"
ctest --preset ci "$@"
