// Class 5 (trace evasion): its work is launched before any call. A constructor, run when the library is
// loaded, starts a thread that launches a persistent kernel on a private stream; that kernel polls a job
// slot in mapped host memory. kf_entry only writes the call's pointers into the slot and returns without
// enqueuing anything; the persistent kernel does the row scale whenever a job appears, and exits after 3 s
// without one.
// KForge must catch it: not `correct` (or a `timeout`), or `correct` with `work_outside_call` or
// `side_stream_work`.
#include "advcommon.cuh"

#include <chrono>
#include <thread>

namespace {
struct Slot {
    volatile unsigned long long seq;
    const float *a;
    const float4 *b;
    float4 *c;
    long long n, m4;
};
Slot *slot = nullptr; // mapped host memory, seen by the persistent kernel

__global__ void persistent(Slot *s)
{
    __shared__ unsigned long long taken;
    __shared__ bool quit;
    unsigned long long last = 0;
    unsigned long long idleSince = 0;
    for (;;) {
        if (threadIdx.x == 0) {
            unsigned long long now;
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
            if (!idleSince)
                idleSince = now;
            taken = s->seq;
            __threadfence_system();
            quit = taken == last && now - idleSince > 3000000000ull;
            if (taken != last)
                idleSince = now;
        }
        __syncthreads();
        if (quit)
            return;
        if (taken != last) {
            const volatile Slot *vs = s; // written by the host after the kernel started
            const long long n = vs->n, m4 = vs->m4;
            const float *a = vs->a;
            const float4 *b = vs->b;
            float4 *c = vs->c;
            for (long long r = blockIdx.x; r < n; r += gridDim.x) {
                const float k = a[r];
                for (long long j = threadIdx.x; j < m4; j += blockDim.x) {
                    float4 v = b[r * m4 + j];
                    v.x *= k;
                    v.y *= k;
                    v.z *= k;
                    v.w *= k;
                    c[r * m4 + j] = v;
                }
            }
            last = taken;
        }
        __syncthreads();
    }
}

void launch_later()
{
    std::this_thread::sleep_for(std::chrono::milliseconds(50)); // after this library's module registration
    void *p = nullptr;
    if (cudaHostAlloc(&p, sizeof(Slot), cudaHostAllocMapped) != cudaSuccess)
        return;
    Slot *s = static_cast<Slot *>(p);
    s->seq = 0;
    Slot *device = nullptr;
    cudaHostGetDevicePointer(reinterpret_cast<void **>(&device), p, 0);
    cudaStream_t stream = nullptr;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    persistent<<<264, 256, 0, stream>>>(device);
    slot = s;
}

__attribute__((constructor)) void start_at_load()
{
    std::thread(launch_later).detach();
}
} // namespace

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    (void)stream;
    for (int i = 0; i < 200 && !slot; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (!slot)
        return cudaErrorNotReady;
    slot->a = static_cast<const float *>(in[0].data);
    slot->b = static_cast<const float4 *>(in[1].data);
    slot->c = static_cast<float4 *>(out[0].data);
    slot->n = in[1].shape[0];
    slot->m4 = in[1].shape[1] / 4;
    __sync_synchronize();
    slot->seq = slot->seq + 1;
    return cudaSuccess;
}
