#!/usr/bin/env bash
# Installs what KForge needs on Debian 12 / Ubuntu 24.04 (only what is missing), then configures and builds
# with the given CMake preset. Idempotent: a second run with nothing changed takes seconds.
#   scripts/setup.sh [preset]      (default: release)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
preset=${1:-release}

packages=(
  build-essential cmake ninja-build pkg-config git python3
  ccache mold  # a compiler cache kept between runs on one machine and a fast linker: the build uses both where present
  qt6-base-dev qt6-tools-dev qt6-l10n-tools qt6-tools-dev-tools libqt6svg6-dev libqt6sql6-sqlite
  qt6-translations-l10n  # qtbase_zh_CN.qm: Qt's own dialogs and buttons in Chinese
  libqscintilla2-qt6-dev libqcustomplot-dev libcurl4-openssl-dev qtkeychain-qt6-dev
  nlohmann-json3-dev libdtl-dev libmd4c-dev libmd4c-html0-dev
  xvfb xauth fonts-dejavu-core fonts-wqy-microhei
  openbox  # a window manager on Xvfb: the window's frame as a desktop gives it (tst_smallscreen_wm)
  appstream desktop-file-utils
  clang libclang-rt-dev
  python3-torch  # kforge-cli import runs PyTorch problems on the CPU (tst_torchimport)
  libtorch-dev pybind11-dev  # torch/extension.h: a torch .cu export's binding is checked against it (tst_exportmodelnew)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "kforge setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The CUDA toolkit is optional for building the workbench: without nvcc KForge still runs and says that
# compiling and evaluating need a CUDA toolkit or a GPU worker (Settings -> Workers).
if [ -z "${CUDA_HOME:-}" ] && [ -x /usr/local/cuda/bin/nvcc ]; then export CUDA_HOME=/usr/local/cuda; fi
if [ -n "${CUDA_HOME:-}" ]; then export PATH="$CUDA_HOME/bin:$PATH"; export CUDACXX="$CUDA_HOME/bin/nvcc"; fi
command -v nvcc >/dev/null || echo "kforge setup: no CUDA toolkit (nvcc) found: building without kforge-worker"

cd "$here"
if [ ! -f "build/$preset/CMakeCache.txt" ]; then
  cmake --preset "$preset"
fi
cmake --build --preset "$preset"
