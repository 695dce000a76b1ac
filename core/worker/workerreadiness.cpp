#include "core/worker/workerreadiness.h"

#include "core/worker/workerstatus.h"

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
        // Never the example command here: it may be exactly the one that just failed. The worker's own words and
        // the page that tests each worker instead.
        if (!m_details.isEmpty())
            return tr("No configured GPU worker could be started (%1), so kernels are compiled here but not measured. "
                      "Settings → Workers shows each worker's error and what to do; Test tries a command again.")
                .arg(WorkerStatus::keyLine(m_details.first()));
        return tr("No configured GPU worker could be started, so kernels are compiled here but not measured. "
                  "Settings → Workers shows each worker's error and what to do; Test tries a command again.");
    case State::NoGpu:
        return tr("No usable GPU: the worker finds no NVIDIA GPU on its machine, so kernels are compiled here but "
                  "not measured. Run the worker on a machine with an NVIDIA GPU instead (Settings → Workers, a command "
                  "such as ssh <host> kforge-worker; Test shows its answer).");
    }
    return {};
}

} // namespace kforge
