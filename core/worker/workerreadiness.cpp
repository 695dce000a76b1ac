#include "core/worker/workerreadiness.h"

namespace kforge {

QString WorkerReadiness::summary() const
{
    switch (m_state) {
    case State::Ready:
        return tr("GPU worker ready");
    case State::Starting:
        return tr("GPU workers: starting…");
    case State::NoWorker:
        return tr("No GPU worker configured");
    case State::CannotStart:
        return tr("No GPU worker could be started");
    case State::NoGpu:
        return tr("No usable GPU");
    }
    return {};
}

QString WorkerReadiness::explanation() const
{
    // The worker's own words ("CUDA driver version is insufficient...") send people to update drivers on a
    // machine that has no GPU at all; this says what is true and what to do instead.
    switch (m_state) {
    case State::Ready:
        return {};
    case State::Starting:
        return tr("The GPU workers are starting: evaluations can begin once one has reported its GPU.");
    case State::NoWorker:
        return tr("No GPU worker is configured, so kernels can be compiled here but not evaluated. Add one in "
                  "Settings → Workers, for example a GPU host through ssh: ssh gpu-box kforge-worker");
    case State::CannotStart:
        return tr("No configured GPU worker could be started, so kernels can be compiled here but not evaluated. "
                  "Check its command in Settings → Workers, or add a GPU host through ssh: ssh gpu-box kforge-worker");
    case State::NoGpu:
        return tr("No GPU worker is usable: the worker runs but finds no usable NVIDIA GPU on its machine, so kernels "
                  "can be compiled here but not evaluated. Run the worker where there is a GPU: Settings → Workers, "
                  "for example ssh gpu-box kforge-worker");
    }
    return {};
}

} // namespace kforge
