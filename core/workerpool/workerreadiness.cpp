#include "core/workerpool/workerreadiness.h"

#include "core/workerpool/workerstatus.h"

namespace kforge {

QString WorkerReadiness::summary() const
{
    // A torch task names what kforge-worker's Python lacks; the rest reads as for a CUDA task.
    if (m_kind == TaskKind::Torch && m_state == State::NoPython)
        return tr("GPU worker: no python3 for torch");
    if (m_kind == TaskKind::Torch && m_state == State::NoTorch)
        return tr("GPU worker: no torch");
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

// A torch task is judged by kforge-worker too, its modules run by a python3 with torch on the worker's machine
// (--torch-python, $KFORGE_TORCH_PYTHON there, else python3): the wording names that python and the piece it lacks,
// never nvcc or compiled kernels.
QString WorkerReadiness::torchExplanation() const
{
    const QString cause = m_cause.isEmpty() ? m_details.value(0) : m_cause;
    switch (m_state) {
    case State::Ready: return {};
    case State::Starting:
        return tr("The GPU workers are starting: this PyTorch task's candidates can be evaluated once one has reported "
                  "its GPU and its Python with torch.");
    case State::NoWorker:
        return tr("No GPU worker is configured, so this PyTorch task's candidates are not evaluated: Ctrl+Enter only "
                  "checks a ModelNew's Python syntax (a .cu kernel is compiled). Add a worker in Settings → Workers, "
                  "e.g. ssh gpu-box kforge-worker, on a machine with an NVIDIA GPU and PyTorch.");
    case State::CannotStart:
        return tr("No configured GPU worker could be started (%1), so this PyTorch task's candidates are not "
                  "evaluated. Settings → Workers shows each worker's error and what to do; Test tries a command again.")
            .arg(cause);
    case State::NoPython:
        return tr("kforge-worker cannot run the Python for this PyTorch task's modules: %1. Install Python 3 with "
                  "PyTorch where the worker runs, or name one that has torch: KFORGE_TORCH_PYTHON=/path/to/python3 "
                  "in the worker's environment, or kforge-worker --torch-python /path/to/python3 as its command "
                  "(Settings → Workers).")
            .arg(cause);
    case State::NoTorch:
        return tr("kforge-worker's Python has no torch, so this PyTorch task's candidates are not evaluated: %1. "
                  "Install PyTorch for it (pip install torch), or name a python3 that has torch: "
                  "KFORGE_TORCH_PYTHON=/path/to/python3 in the worker's environment, or kforge-worker --torch-python "
                  "/path/to/python3 as its command (Settings → Workers).")
            .arg(cause);
    case State::NoGpu:
        return tr("No usable GPU: kforge-worker finds no NVIDIA GPU on its machine (%1), and a PyTorch task's "
                  "candidates are measured on one. Run the worker on a machine with an NVIDIA GPU and PyTorch "
                  "(Settings → Workers, e.g. ssh gpu-box kforge-worker; Test shows its answer).")
            .arg(cause);
    }
    return {};
}

} // namespace kforge
