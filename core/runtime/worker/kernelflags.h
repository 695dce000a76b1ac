#pragma once
// The nvcc flags kforge-worker builds a kernel with (--self-test, the runtime tests). The client's
// KernelBuildFlags (core/compile/kernelbuildflags.h) decides them; this Qt-free layer cannot link it, so this is
// a copy that tst_workerdefaults checks against it.
#include <string>
#include <vector>

namespace kforge::runtime {

// Optimisation and line info, before the architecture.
inline std::vector<std::string> nvccBaseFlags()
{
    return {"-O3", "-lineinfo"};
}

// After the architecture: a shared object the worker can dlopen.
inline std::vector<std::string> nvccSharedObjectFlags()
{
    return {"-shared", "-Xcompiler", "-fPIC"};
}

} // namespace kforge::runtime
