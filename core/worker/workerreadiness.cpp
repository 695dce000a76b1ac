#include "core/worker/workerreadiness.h"

#include "core/worker/workerstatus.h"

namespace kforge {

QString WorkerReadiness::summary() const
{
    if (m_kind == TaskKind::Torch) {
        switch (m_state) {
        case State::Ready: return tr("Torch worker ready");
        case State::Starting: return tr("Torch worker: starting…");
        case State::NoWorker: return tr("No GPU worker configured");
        case State::CannotStart: return tr("The torch worker could not be started");
        case State::NoGpu: return tr("Torch worker: no CUDA");
        case State::NoPython: return tr("Torch worker: no python3");
        case State::NoTorch: return tr("Torch worker: no torch");
        }
        return {};
    }
    switch (m_state) {
    case State::Ready: return tr("GPU worker ready");
    case State::Starting: return tr("GPU workers: starting…");
    case State::NoWorker: return tr("No GPU worker configured");
    case State::CannotStart: return tr("No GPU worker could be started");
    case State::NoGpu:
    case State::NoPython:
    case State::NoTorch: return tr("No usable GPU");
    }
    return {};
}

QString WorkerReadiness::explanation() const
{
    if (m_kind == TaskKind::Torch)
        return torchExplanation();
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
    case State::NoPython:
    case State::NoTorch:
        return tr("No usable GPU: the worker finds no NVIDIA GPU on its machine, so kernels are compiled here but "
                  "not measured. Run the worker on a machine with an NVIDIA GPU instead (Settings → Workers, a command "
                  "such as ssh <host> kforge-worker; Test shows its answer).");
    }
    return {};
}

// A torch task is evaluated by kforge-torch-worker (python3 + torch + CUDA), started from each worker command with
// kforge-worker replaced: the wording names that program and the piece it lacks, never nvcc or compiled kernels.
QString WorkerReadiness::torchExplanation() const
{
    const QString cause = m_cause.isEmpty() ? m_details.value(0) : m_cause;
    switch (m_state) {
    case State::Ready: return {};
    case State::Starting:
        return tr("The torch worker is starting (python3 imports torch): evaluations can begin once it has reported "
                  "its device.");
    case State::NoWorker:
        return tr("No GPU worker is configured, so this PyTorch task's candidates are not evaluated: Ctrl+Enter only "
                  "checks a ModelNew's Python syntax (a .cu kernel is compiled). Add a worker in Settings → Workers, "
                  "e.g. ssh gpu-box kforge-worker: for a torch task it runs kforge-torch-worker there.");
    case State::CannotStart:
        return tr("The torch worker (kforge-torch-worker, run for this PyTorch task in place of kforge-worker) could "
                  "not be started: %1")
            .arg(cause);
    case State::NoPython:
        return tr("The torch worker needs python3 and cannot run one: %1. Install Python 3 with PyTorch where the "
                  "worker runs, or set KFORGE_TORCH_PYTHON to a python3 that has torch.")
            .arg(cause);
    case State::NoTorch: return tr("The torch worker's Python has no torch: %1").arg(cause);
    case State::NoGpu:
        return tr("The torch worker runs, but its torch has no usable CUDA GPU (%1): a CPU-only torch build (such as "
                  "Debian's python3-torch) or no NVIDIA driver. Run the worker on a GPU host with a CUDA build of "
                  "PyTorch (Settings → Workers, e.g. ssh gpu-box kforge-worker); kforge-torch-worker --check there "
                  "says what is missing.")
            .arg(cause);
    }
    return {};
}

} // namespace kforge
