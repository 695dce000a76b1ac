#!/usr/bin/env bash
# Builds the libFuzzer target with clang (when the main build uses another compiler) and runs it briefly.
# Exit 77 (CTest: skipped) where clang or its libFuzzer runtime is missing.
#   run_with_clang.sh <source dir> <work dir> [seconds]
set -euo pipefail
src=$1; work=$2; seconds=${3:-20}
clang=${CXX_FUZZ:-$(command -v clang++ || true)}
[ -n "$clang" ] || { echo "SKIP: no clang++ (install clang libclang-rt-dev)"; exit 77; }
mkdir -p "$work/corpus"
probe=$work/probe.cpp
printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t *, size_t) { return 0; }\n' > "$probe"
"$clang" -fsanitize=fuzzer "$probe" -o "$work/probe" 2>/dev/null || { echo "SKIP: $clang cannot link -fsanitize=fuzzer (install libclang-rt-dev)"; exit 77; }
llm=$src/core/llm
flags=(-std=c++20 -O1 -g -fPIC -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
       -DQT_NO_CAST_FROM_ASCII -DQT_NO_CAST_TO_ASCII -I"$src" $(pkg-config --cflags Qt6Core))
if [ ! -x "$work/fuzz_llm_stream" ] || [ -n "$(find "$llm" "$src/tests/fuzz" -newer "$work/fuzz_llm_stream" -name '*.cpp' -o -newer "$work/fuzz_llm_stream" -name '*.h' | head -1)" ]; then
  "$clang" "${flags[@]}" "$src/tests/fuzz/fuzz_llm_stream.cpp" "$llm/sseparser.cpp" "$llm/streamdecoder.cpp" \
    "$llm/openaistreamdecoder.cpp" "$llm/anthropicstreamdecoder.cpp" "$llm/llmerrors.cpp" "$llm/llmresult.cpp" \
    $(pkg-config --libs Qt6Core) -o "$work/fuzz_llm_stream"
fi
exec "$work/fuzz_llm_stream" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
  "$work/corpus" "$src/tests/fixtures/llm"
