#include "core/worker/workerreadiness.h"

namespace kforge {

QString WorkerReadiness::summary() const
{
    switch (m_state) {
    case State::Ready: return tr("GPU worker ready");
    case State::Starting: return tr("GPU workers: starting…");
    case State::NoWorker: return tr("No GPU worker configured");
    case State::CannotStart: return tr("No GPU worker could be started");
    case State::NoGpu: return tr("No usable GPU");
    }
    return {};
}

QString WorkerReadiness::explanation() const
{
    // The worker's own words ("CUDA driver version is insufficient...") send people to update drivers on a
    // machine that has no GPU at all; this says what is true and what to do instead.
    switch (m_state) {
    case State::Ready: return {};
    case State::Starting:
        return tr("The GPU workers are starting: evaluations can begin once one has reported its GPU.");
    case State::NoWorker:
        return tr("No GPU worker is configured, so kernels are compiled here but not measured. Add one in "
                  "Settings → Workers, e.g. a GPU host: ssh gpu-box kforge-worker");
    case State::CannotStart:
        return tr("No configured GPU worker could be started, so kernels are compiled here but not measured. "
                  "Check its command in Settings → Workers, or add a GPU host: ssh gpu-box kforge-worker");
    case State::NoGpu:
        return tr("No usable GPU: the worker finds no NVIDIA GPU on its machine, so kernels are compiled here but "
                  "not measured. Run the worker on a GPU host instead: Settings → Workers, e.g. ssh gpu-box kforge-worker");
    }
    return {};
}

} // namespace kforge
