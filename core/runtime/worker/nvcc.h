#pragma once
// Just enough of a kernel compiler for --self-test and the runtime tests: nvcc into a shared object,
// several at a time. The GUI's compile service (core/compile) is the full one (cache, diagnostics).
#include <filesystem>
#include <string>
#include <vector>

namespace kforge::runtime {

struct NvccJob {
    std::filesystem::path source;
    std::filesystem::path output;   // .so
    std::vector<std::string> flags; // task and variant flags, after the source
};

struct NvccResult {
    bool ok = false;
    std::string log; // nvcc's stdout and stderr
    double seconds = 0;
};

// $KFORGE_NVCC, else the toolkit found at build time, else "nvcc" on PATH.
std::string findNvcc();
// The folder holding kforge/kernel.h: $KFORGE_ABI_INCLUDE, an installed share/kforge/include next to
// this executable, or the source tree's core/runtime/include.
std::string abiIncludeDir();
// This executable's path (readlink /proc/self/exe).
std::string selfExecutable();
// An executable file named `name` in a folder of $PATH (/usr/local/bin:/usr/bin:/bin without one), as an absolute
// path; empty when none has it.
std::string findOnPath(const std::string &name);

// `nvcc -O3 -lineinfo -arch=<arch> -shared -Xcompiler -fPIC -I<include> -o <output> <source> <flags>`,
// `parallel` at a time (0: the number of CPUs).
std::vector<NvccResult> compileKernels(const std::vector<NvccJob> &jobs, const std::string &arch, unsigned parallel = 0);

} // namespace kforge::runtime
