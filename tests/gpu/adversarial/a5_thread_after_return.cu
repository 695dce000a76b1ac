// Class 5 (trace evasion): launches its work from another thread after kf_entry has returned. The entry only
// queues the call's tensors; a thread started on the first call waits 2 ms and then launches the row scale
// on its own stream.
// KForge must catch it: not `correct`, or `correct` with `work_outside_call` or `side_stream_work`.
#include "advcommon.cuh"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace {
struct Job {
    kf_tensor in[2];
    kf_tensor out[1];
};
std::mutex mutex;
std::condition_variable wake;
std::deque<Job> jobs;

void worker()
{
    cudaStream_t s = nullptr;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (;;) {
        Job job;
        {
            std::unique_lock<std::mutex> lock(mutex);
            wake.wait(lock, [] { return !jobs.empty(); });
            job = jobs.front();
            jobs.pop_front();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        adv_rowscale(job.in, job.out, s);
    }
}
} // namespace

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    (void)stream;
    static std::thread *thread = new std::thread(worker);
    (void)thread;
    {
        std::lock_guard<std::mutex> lock(mutex);
        jobs.push_back(Job{{in[0], in[1]}, {out[0]}});
    }
    wake.notify_one();
    return cudaSuccess;
}
