// Honest: a CUDA graph launched on the given stream. For each (input, output) address set it captures the
// row scale once on a private stream, instantiates it, and launches the graph on the given stream.
// KForge must report `correct` with no flag.
#include "advcommon.cuh"

#include <map>
#include <tuple>

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    (void)params;
    static cudaStream_t capture = [] {
        cudaStream_t s = nullptr;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        return s;
    }();
    static std::map<std::tuple<const void *, const void *, const void *>, cudaGraphExec_t> graphs;
    const auto key = std::make_tuple(in[0].data, in[1].data, (const void *)out[0].data);
    auto it = graphs.find(key);
    if (it == graphs.end()) {
        cudaGraph_t graph = nullptr;
        cudaError_t e = cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal);
        if (e != cudaSuccess)
            return e;
        const int rc = adv_rowscale(in, out, capture);
        e = cudaStreamEndCapture(capture, &graph);
        if (rc != 0 || e != cudaSuccess)
            return rc ? rc : (int)e;
        cudaGraphExec_t exec = nullptr;
        e = cudaGraphInstantiate(&exec, graph, 0);
        cudaGraphDestroy(graph);
        if (e != cudaSuccess)
            return e;
        it = graphs.emplace(key, exec).first;
    }
    return cudaGraphLaunch(it->second, stream);
}
