#!/usr/bin/env bash
# Builds every built-in task's variants the way the client compiles candidates (-O3 -lineinfo, shared object) and
# dumps what the source-level profile parses: PTX (nvcc -ptx -lineinfo), SASS from cuobjdump -sass, and SASS with
# line info from nvdisasm on the extracted cubins. Run on the GPU host (it has cuobjdump and nvdisasm):
#   tests/gpu/tools/make_asm_fixtures.sh OUT_DIR [ARCH]
set -euo pipefail
out=${1:?output folder}; arch=${2:-sm_90}
here=$(cd "$(dirname "$0")/../../.." && pwd)
nvcc=${NVCC:-nvcc}
mkdir -p "$out"
{ "$nvcc" --version | tail -2; cuobjdump --version | tail -1; nvdisasm --version | tail -1; } > "$out/tools.txt" 2>&1 || true
one() {
    src=$1; task=$(dirname "$src"); [ "$(basename "$task")" = variants ] && task=$(dirname "$task")
    t=$(basename "$task"); n=$(basename "$src" .cu); d="$out/$t/$n"; mkdir -p "$d"
    cp "$src" "$d/source.cu"
    "$nvcc" -O3 -lineinfo -arch="$arch" -I"$here/core/runtime/include" -ptx -o "$d/kernel.ptx" "$src" 2> "$d/ptx.log" || true
    "$nvcc" -O3 -lineinfo -arch="$arch" -shared -Xcompiler -fPIC -I"$here/core/runtime/include" -o "$d/kernel.so" "$src" 2> "$d/so.log" || { echo "$t/$n: build failed"; return 0; }
    cuobjdump -sass "$d/kernel.so" > "$d/cuobjdump.sass" 2>&1 || true
    (cd "$d" && cuobjdump -xelf all kernel.so > /dev/null 2>&1 || true)
    for cubin in "$d"/*.cubin; do
      [ -f "$cubin" ] || continue
      nvdisasm --print-line-info -c "$cubin" > "${cubin%.cubin}.nvdisasm_lineinfo.sass" 2>&1 || true
      nvdisasm -g -c "$cubin" > "${cubin%.cubin}.nvdisasm_g.sass" 2>&1 || true
      nvdisasm --print-line-info-inline -c "$cubin" > "${cubin%.cubin}.nvdisasm_inline.sass" 2>&1 || true
      rm -f "$cubin"
    done
    rm -f "$d/kernel.so"
}
export -f one; export out arch here nvcc
# CUDA tasks only (those with a reference.cu): a torch task's .cu variants are not kforge-worker's.
for t in "$here"/resources/tasks/*/; do
  if [ -f "$t/reference.cu" ]; then ls "$t"reference.cu "$t"variants/*.cu; else echo "skip $(basename "$t"): a torch task" >&2; fi
done | xargs -P "$(nproc)" -I{} bash -c 'one "$@"' _ {}
echo "fixtures in $out:"; find "$out" -type f | wc -l; du -sh "$out"
