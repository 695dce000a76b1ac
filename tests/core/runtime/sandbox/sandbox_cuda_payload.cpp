// The GPU half of tst_sandbox (label gpu): the CUDA driver must keep working inside the sandbox, and after
// applyHostRestrictions. Reaches the driver through dlopen("libcuda.so.1") only, so it builds without the CUDA
// toolkit. Answers one JSON line on fd 3: {"skip": why} where there is no usable GPU, else
// {"device":..,"protections":{..},"before":"ok"|step,"after":"ok"|step}.
#include "core/runtime/host/sandbox.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUdeviceptr = unsigned long long;

struct Driver {
    CUresult (*init)(unsigned);
    CUresult (*deviceGet)(CUdevice *, int);
    CUresult (*deviceGetName)(char *, int, CUdevice);
    CUresult (*primaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*ctxSetCurrent)(CUcontext);
    CUresult (*memAlloc)(CUdeviceptr *, std::size_t);
    CUresult (*memFree)(CUdeviceptr);
    CUresult (*memsetD8)(CUdeviceptr, unsigned char, std::size_t);
    CUresult (*memcpyDtoH)(void *, CUdeviceptr, std::size_t);
    CUresult (*ctxSynchronize)();
    CUresult (*moduleLoadData)(CUmodule *, const void *);
    CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *,
                             void **, void **);
    CUresult (*getErrorName)(CUresult, const char **);
};

// out[i] = base + i; JIT-compiled by the driver (which writes its cache beneath CUDA_CACHE_PATH).
const char kPtx[] = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry fill(.param .u64 out, .param .u32 base)
{
  .reg .b64 %rd<4>;
  .reg .b32 %r<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [base];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd2, %rd2, %rd3;
  add.u32 %r3, %r1, %r2;
  st.global.u32 [%rd2], %r3;
  ret;
}
)";

void reply(const nlohmann::ordered_json &j)
{
    const std::string text = j.dump() + "\n";
    if (::write(3, text.data(), text.size()) < 0)
        _exit(3);
}

template <typename F>
bool load(void *lib, const char *name, F &fn)
{
    fn = reinterpret_cast<F>(::dlsym(lib, name));
    return fn != nullptr;
}

std::string errorName(const Driver &d, CUresult rc)
{
    const char *name = nullptr;
    if (d.getErrorName && d.getErrorName(rc, &name) == 0 && name)
        return name;
    return std::to_string(rc);
}

// Allocation, memset, a JIT-compiled kernel and a copy back, checked. "ok" or the step that failed.
std::string exercise(const Driver &d, unsigned base)
{
    constexpr unsigned kThreads = 256;
    CUdeviceptr buf = 0;
    CUresult rc = d.memAlloc(&buf, kThreads * sizeof(std::uint32_t));
    if (rc != 0)
        return "cuMemAlloc: " + errorName(d, rc);
    if ((rc = d.memsetD8(buf, 0, kThreads * sizeof(std::uint32_t))) != 0)
        return "cuMemsetD8: " + errorName(d, rc);
    CUmodule module = nullptr;
    CUfunction fn = nullptr;
    if ((rc = d.moduleLoadData(&module, kPtx)) != 0)
        return "cuModuleLoadData: " + errorName(d, rc);
    if ((rc = d.moduleGetFunction(&fn, module, "fill")) != 0)
        return "cuModuleGetFunction: " + errorName(d, rc);
    void *args[] = {&buf, &base};
    if ((rc = d.launchKernel(fn, 1, 1, 1, kThreads, 1, 1, 0, nullptr, args, nullptr)) != 0)
        return "cuLaunchKernel: " + errorName(d, rc);
    if ((rc = d.ctxSynchronize()) != 0)
        return "cuCtxSynchronize: " + errorName(d, rc);
    std::vector<std::uint32_t> host(kThreads);
    if ((rc = d.memcpyDtoH(host.data(), buf, host.size() * sizeof(std::uint32_t))) != 0)
        return "cuMemcpyDtoH: " + errorName(d, rc);
    d.memFree(buf);
    for (unsigned i = 0; i < kThreads; ++i) {
        if (host[i] != base + i)
            return "wrong result at " + std::to_string(i);
    }
    return "ok";
}

} // namespace

int main()
{
    void *lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        reply({{"skip", std::string("no libcuda.so.1: ") + ::dlerror()}});
        return 0;
    }
    Driver d{};
    const bool all = load(lib, "cuInit", d.init) && load(lib, "cuDeviceGet", d.deviceGet)
                     && load(lib, "cuDeviceGetName", d.deviceGetName)
                     && load(lib, "cuDevicePrimaryCtxRetain", d.primaryCtxRetain)
                     && load(lib, "cuCtxSetCurrent", d.ctxSetCurrent) && load(lib, "cuMemAlloc_v2", d.memAlloc)
                     && load(lib, "cuMemFree_v2", d.memFree) && load(lib, "cuMemsetD8_v2", d.memsetD8)
                     && load(lib, "cuMemcpyDtoH_v2", d.memcpyDtoH) && load(lib, "cuCtxSynchronize", d.ctxSynchronize)
                     && load(lib, "cuModuleLoadData", d.moduleLoadData)
                     && load(lib, "cuModuleGetFunction", d.moduleGetFunction)
                     && load(lib, "cuLaunchKernel", d.launchKernel) && load(lib, "cuGetErrorName", d.getErrorName);
    if (!all) {
        reply({{"skip", "libcuda.so.1 lacks a driver API entry point"}});
        return 0;
    }
    CUresult rc = d.init(0);
    if (rc != 0) {
        reply({{"skip", "cuInit: " + errorName(d, rc)}});
        return 0;
    }
    CUdevice dev = 0;
    CUcontext ctx = nullptr;
    char name[256] = {};
    if ((rc = d.deviceGet(&dev, 0)) != 0 || (rc = d.primaryCtxRetain(&ctx, dev)) != 0 || (rc = d.ctxSetCurrent(ctx)) != 0) {
        reply({{"skip", "no device context: " + errorName(d, rc)}});
        return 0;
    }
    d.deviceGetName(name, sizeof name - 1, dev);
    nlohmann::ordered_json j;
    j["device"] = name;
    j["before"] = exercise(d, 1000);
    // As the candidate host does: restrictions after the driver and the context are up.
    j["protections"] = kforge::runtime::host::applyHostRestrictions({}).toJson();
    j["after"] = exercise(d, 2000);
    reply(j);
    return 0;
}
