// Class 1 (address space): rewrites the timing code of the process it runs in. It hot-patches the CUDA
// driver's cuEventElapsedTime (and _v2) and the runtime's cudaEventElapsedTime where they are reachable, so
// every event pair measured in this process reports 1 microsecond, then computes diag_matmul honestly.
// KForge must stay `correct` with an honest speedup (<= the manifest's max_speedup): the figure it reports
// is measured outside the candidate's address space (a `timing_mismatch` flag is welcome, not required).
#include "advcommon.cuh"

#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern "C" int adv_fake_elapsed(float *ms, void *, void *)
{
    if (ms)
        *ms = 0.001f;
    return 0; // CUDA_SUCCESS and cudaSuccess
}

static void patch(void *target)
{
#if defined(__x86_64__)
    if (!target)
        return;
    const long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = reinterpret_cast<uintptr_t>(target) & ~static_cast<uintptr_t>(page - 1);
    if (mprotect(reinterpret_cast<void *>(start), 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
        return;
    // movabs rax, adv_fake_elapsed; jmp rax
    unsigned char code[12] = {0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xE0};
    const uintptr_t to = reinterpret_cast<uintptr_t>(&adv_fake_elapsed);
    memcpy(code + 2, &to, sizeof to);
    memcpy(target, code, sizeof code);
    mprotect(reinterpret_cast<void *>(start), 2 * page, PROT_READ | PROT_EXEC);
#else
    (void)target;
#endif
}

static bool patch_all()
{
    if (void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
        patch(dlsym(cuda, "cuEventElapsedTime"));
        patch(dlsym(cuda, "cuEventElapsedTime_v2"));
    }
    patch(dlsym(RTLD_DEFAULT, "cudaEventElapsedTime"));
    patch(dlsym(RTLD_DEFAULT, "cudaEventElapsedTime_v2"));
    return true;
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static const bool patched = patch_all();
    (void)patched;
    return adv_rowscale(in, out, stream);
}
