// libkforge_hostguard.so: the candidate host's restrictions (applyHostRestrictions: Landlock, then seccomp) for a
// host that is not kforge-worker, the Python module host (torchworker/kforge_torchworker/modulehost.py), which
// loads it with ctypes after its CUDA context exists and before it imports the module. One C function, so the
// module host applies exactly the rules the native host applies, from the same code.
#include "core/runtime/host/sandbox.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <string>

namespace {

int answer(const std::string &text, char *out, std::size_t cap, int rc)
{
    if (out && cap > 0) {
        const std::size_t n = std::min(text.size(), cap - 1);
        std::memcpy(out, text.data(), n);
        out[n] = '\0';
    }
    return rc;
}

} // namespace

// `restrictions`: HostRestrictions as JSON ({"landlock", "seccomp", "writable_dir"}). Writes the Protections the
// kernel allowed as JSON into `out` and returns 0; on a malformed request, the error text and 1.
extern "C" __attribute__((visibility("default"))) int kforge_host_restrict(const char *restrictions, char *out,
                                                                           std::size_t cap)
{
    using namespace kforge::runtime::host;
    try {
        const HostRestrictions r = HostRestrictions::fromJson(nlohmann::json::parse(restrictions ? restrictions : "{}"));
        return answer(applyHostRestrictions(r).toJson().dump(), out, cap, 0);
    } catch (const std::exception &e) {
        return answer(e.what(), out, cap, 1);
    }
}
