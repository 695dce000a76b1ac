// What the judge can see of another process's GPU work (issue 35, item 1): a measurement, not a test.
// A child process (its own CUDA context, as a candidate host has) is told to leave work on the GPU; the parent
// (the judge's side) then
//   - runs probe kernels of several lengths that read %globaltimer in a loop and keep the largest gap between two
//     reads (a gap is time the probe's context did not run: another context was time-sliced in);
//   - tries the driver's checkpoint lock on the child (cuCheckpointProcessLock with a timeout): does a lock wait
//     for, or refuse on, work still running in the child's context, and what does a lock and unlock cost.
// Build: nvcc -O2 -arch=sm_90 contention_probe.cu -lcuda -o contention_probe. Prints one table.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#define CK(x)                                                                                                          \
    do {                                                                                                               \
        cudaError_t e_ = (x);                                                                                          \
        if (e_ != cudaSuccess) {                                                                                       \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));                  \
            std::exit(2);                                                                                              \
        }                                                                                                              \
    } while (0)

__device__ __forceinline__ unsigned long long globalTimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Spins `ns` of the global timer; out[0] the largest gap between two reads, out[1] the time it ran.
__global__ void probeKernel(unsigned long long ns, unsigned long long *out)
{
    const unsigned long long t0 = globalTimer();
    unsigned long long last = t0, gap = 0, now = t0;
    do {
        now = globalTimer();
        gap = max(gap, now - last);
        last = now;
    } while (now - t0 < ns);
    out[0] = gap;
    out[1] = now - t0;
}

__global__ void burnKernel(unsigned long long ns)
{
    const unsigned long long t0 = globalTimer();
    while (globalTimer() - t0 < ns) {
    }
}

using Clock = std::chrono::steady_clock;
static double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

static void child(int in, int out)
{
    CK(cudaFree(nullptr));
    cudaStream_t side, waiting;
    CK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&waiting, cudaStreamNonBlocking));
    unsigned *word = nullptr;
    CK(cudaMalloc(&word, 4));
    CK(cudaMemset(word, 0, 4));
    CK(cudaDeviceSynchronize());
    char c = 'r';
    (void)!write(out, &c, 1);
    while (read(in, &c, 1) == 1) {
        if (c == 'b') // a burner of 400 ms, left running
            burnKernel<<<1, 32, 0, side>>>(400ull * 1000 * 1000);
        else if (c == 'w') { // a stream waiting on a word nobody writes, then a burner behind it
            cuStreamWaitValue32(reinterpret_cast<CUstream>(waiting), reinterpret_cast<CUdeviceptr>(word), 1,
                                CU_STREAM_WAIT_VALUE_EQ);
            burnKernel<<<1, 32, 0, waiting>>>(1000ull * 1000);
        } else if (c == 'q')
            _exit(0);
        (void)!write(out, &c, 1);
    }
    _exit(0);
}

struct Probe {
    double gapUs = 0, ranUs = 0;
};

static Probe probe(unsigned long long *d, unsigned long long *h, double us)
{
    probeKernel<<<1, 1>>>(static_cast<unsigned long long>(us * 1000), d);
    CK(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost));
    return Probe{h[0] / 1000.0, h[1] / 1000.0};
}

static std::string lockTry(int pid, unsigned timeoutMs, double &ms)
{
    CUcheckpointLockArgs a{};
    a.timeoutMs = timeoutMs;
    const auto t = Clock::now();
    const CUresult r = cuCheckpointProcessLock(pid, &a);
    ms = msSince(t);
    const char *name = nullptr;
    cuGetErrorName(r, &name);
    return name ? name : std::to_string(static_cast<int>(r));
}

int main()
{
    // Line-buffered: on the H100 (2026-12-07) the run outlived its 90 s stage and its buffered table was lost; each
    // row now goes out as it is measured, and the whole program ends by itself after 75 s.
    setvbuf(stdout, nullptr, _IOLBF, 0);
    alarm(75);
    int toChild[2], fromChild[2];
    if (pipe(toChild) || pipe(fromChild))
        return 1;
    const pid_t pid = fork();
    if (pid == 0) {
        child(toChild[0], fromChild[1]);
        return 0;
    }
    char c;
    const auto tell = [&](char what) {
        (void)!write(toChild[1], &what, 1);
        (void)!read(fromChild[0], &c, 1);
    };
    (void)!read(fromChild[0], &c, 1); // ready
    CK(cudaFree(nullptr));
    unsigned long long *d = nullptr, *h = nullptr;
    CK(cudaMalloc(&d, 16));
    CK(cudaMallocHost(&h, 16));
    probe(d, h, 10);
    const std::vector<double> lengths{20, 100, 500, 2000, 5000};
    const auto row = [&](const char *state) {
        for (double L : lengths) {
            double gap = 0, ran = 0;
            for (int i = 0; i < 5; ++i) {
                const Probe p = probe(d, h, L);
                gap = std::max(gap, p.gapUs);
                ran = std::max(ran, p.ranUs);
            }
            std::printf("probe  %-28s length %6.0f us  max gap %9.2f us  ran %9.2f us\n", state, L, gap, ran);
        }
    };
    row("child idle");
    tell('b');
    usleep(2000);
    row("child burning");
    // The burner has ~380 ms left: a lock with a short timeout, then a long one.
    tell('b');
    usleep(2000);
    double ms = 0;
    std::string r = lockTry(pid, 50, ms);
    std::printf("lock   %-28s timeout 50 ms    -> %s after %.2f ms\n", "child burning 400 ms", r.c_str(), ms);
    if (r == "CUDA_SUCCESS") {
        const Probe p = probe(d, h, 2000);
        std::printf("probe  %-28s length 2000 us  max gap %9.2f us\n", "child locked, burner left", p.gapUs);
        const auto t = Clock::now();
        cuCheckpointProcessUnlock(pid, nullptr);
        std::printf("unlock %.3f ms\n", msSince(t));
    }
    r = lockTry(pid, 2000, ms);
    std::printf("lock   %-28s timeout 2000 ms  -> %s after %.2f ms\n", "child burning (2nd try)", r.c_str(), ms);
    if (r == "CUDA_SUCCESS")
        cuCheckpointProcessUnlock(pid, nullptr);
    usleep(500 * 1000);
    std::vector<double> lockMs, unlockMs;
    for (int i = 0; i < 50; ++i) {
        r = lockTry(pid, 1000, ms);
        if (r != "CUDA_SUCCESS") {
            std::printf("lock   idle child: %s\n", r.c_str());
            break;
        }
        lockMs.push_back(ms);
        const auto t = Clock::now();
        cuCheckpointProcessUnlock(pid, nullptr);
        unlockMs.push_back(msSince(t));
    }
    if (!lockMs.empty()) {
        std::sort(lockMs.begin(), lockMs.end());
        std::sort(unlockMs.begin(), unlockMs.end());
        std::printf("lock   idle child x%zu: median %.3f ms (max %.3f), unlock median %.3f ms (max %.3f)\n", lockMs.size(),
                    lockMs[lockMs.size() / 2], lockMs.back(), unlockMs[unlockMs.size() / 2], unlockMs.back());
    }
    tell('w');
    usleep(2000);
    row("child waiting on a word");
    r = lockTry(pid, 100, ms);
    std::printf("lock   %-28s timeout 100 ms   -> %s after %.2f ms\n", "child waiting on a word", r.c_str(), ms);
    if (r == "CUDA_SUCCESS")
        cuCheckpointProcessUnlock(pid, nullptr);
    // SIGSTOP'd child with a burner: does the probe still see it (it should: the GPU runs on).
    tell('b');
    kill(pid, SIGSTOP);
    usleep(2000);
    row("child stopped, burner left");
    kill(pid, SIGCONT);
    tell('q');
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    return 0;
}
