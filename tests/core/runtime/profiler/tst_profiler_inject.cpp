// GPU: libkforge_inject.so traces an unmodified CUDA program through CUDA_INJECTION64_PATH and writes the
// JSON-lines trace at exit; without KFORGE_INJECT_OUT it prints a summary. Also a PyTorch program when
// python3 with CUDA torch is available (if that torch ships another libcupti the library must refuse).
#include "tests/core/runtime/check.h"

#include <cuda_runtime.h>
#include <cupti.h>

#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace {

std::string readFile(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

int run(const std::string &command)
{
    std::printf("$ %s\n", command.c_str());
    std::fflush(stdout);
    int rc = std::system(command.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

struct Trace {
    nlohmann::json header, summary;
    std::vector<nlohmann::json> kernels, memcpys, memsets;
    bool ok = false;
};

Trace readTrace(const std::string &path)
{
    Trace t;
    std::ifstream f(path);
    std::string line;
    size_t lines = 0;
    while (std::getline(f, line)) {
        ++lines;
        nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded()) {
            KF_CHECK_MSG(false, "not JSON: " + line);
            continue;
        }
        std::string type = j.value("type", "");
        if (type == "header")
            t.header = j;
        else if (type == "summary")
            t.summary = j;
        else if (type == "kernel")
            t.kernels.push_back(j);
        else if (type == "memcpy")
            t.memcpys.push_back(j);
        else if (type == "memset")
            t.memsets.push_back(j);
    }
    t.ok = lines > 0 && !t.header.is_null() && !t.summary.is_null();
    return t;
}

} // namespace

int main()
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
        kforge::runtime::test::skip("no CUDA device");

    const std::string lib = KFORGE_INJECT_LIB, target = KFORGE_INJECT_TARGET, tmp = KFORGE_TEST_TMP_DIR;
    const std::string out = tmp + "/inject_cuda.jsonl";
    std::remove(out.c_str());
    int rc = run("env CUDA_INJECTION64_PATH='" + lib + "' KFORGE_INJECT_OUT='" + out + "' '" + target + "'");
    KF_CHECK(rc == 0);
    Trace t = readTrace(out);
    KF_CHECK_MSG(t.ok, "no trace in " + out);
    if (t.ok) {
        KF_CHECK(t.header["format"] == "kforge-trace" && t.header["cupti_version"] == CUPTI_API_VERSION);
        std::map<std::string, int> byName;
        std::set<uint32_t> streams;
        for (const auto &k : t.kernels) {
            byName[k["name"]]++;
            streams.insert(k["stream"].get<uint32_t>());
            KF_CHECK(k["end_ns"].get<uint64_t>() >= k["start_ns"].get<uint64_t>());
        }
        std::printf("traced %zu kernels (%d tiny, %d side) on %zu streams, %zu memcpy, %zu memset, dropped %d\n",
                    t.kernels.size(), byName["tiny_kernel(int*)"], byName["side_kernel(int*)"], streams.size(),
                    t.memcpys.size(), t.memsets.size(), t.summary["dropped"].get<int>());
        KF_CHECK(byName["tiny_kernel(int*)"] == 100);
        KF_CHECK(byName["side_kernel(int*)"] == 20);
        KF_CHECK(t.kernels.size() == 120);
        KF_CHECK(streams.size() == 2);
        KF_CHECK(t.memcpys.size() == 2 && t.memsets.size() == 1);
        KF_CHECK(t.summary["kernels"] == 120 && t.summary["dropped"] == 0);
        KF_CHECK(t.summary["by_name"].size() == 2);
        KF_CHECK(t.header["command"].get<std::string>().find("kforge_inject_target") != std::string::npos);
    }

    // Without KFORGE_INJECT_OUT: a one-line summary on stderr.
    const std::string err = tmp + "/inject_stderr.txt";
    rc = run("env -u KFORGE_INJECT_OUT CUDA_INJECTION64_PATH='" + lib + "' '" + target + "' 2> '" + err + "'");
    KF_CHECK(rc == 0);
    KF_CHECK_CONTAINS(readFile(err), "kforge_inject: pid");
    KF_CHECK_CONTAINS(readFile(err), "traced 120 kernels");

    // PyTorch, when available.
    if (run("python3 -c 'import torch,sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null") != 0) {
        std::printf("(python3 with CUDA torch not available: PyTorch injection not run)\n");
        return kforge::runtime::test::finish("tst_profiler_inject");
    }
    const std::string tout = tmp + "/inject_torch.jsonl", terr = tmp + "/inject_torch_stderr.txt";
    std::remove(tout.c_str());
    rc = run("env CUDA_INJECTION64_PATH='" + lib + "' KFORGE_INJECT_OUT='" + tout + "' python3 '"
             + std::string(KFORGE_INJECT_TORCH_SCRIPT) + "' 2> '" + terr + "'");
    KF_CHECK_MSG(rc == 0, readFile(terr));
    const std::string errText = readFile(terr);
    if (errText.find("refusing to trace") != std::string::npos) {
        std::printf("PyTorch loaded another libcupti; the library refused as it must: %s\n", errText.c_str());
        KF_CHECK(readFile(tout).empty());
    } else {
        Trace tt = readTrace(tout);
        KF_CHECK_MSG(tt.ok, "no trace from the PyTorch program; stderr: " + errText);
        std::map<std::string, int> names;
        std::set<uint32_t> streams;
        for (const auto &k : tt.kernels) {
            names[k["name"]]++;
            streams.insert(k["stream"].get<uint32_t>());
        }
        std::printf("PyTorch: %zu kernels, %zu distinct, %zu streams, dropped %s\n", tt.kernels.size(), names.size(),
                    streams.size(), tt.summary.is_null() ? "?" : tt.summary["dropped"].dump().c_str());
        int shown = 0;
        for (const auto &[n, c] : names)
            if (shown++ < 8)
                std::printf("  %4d x %.100s\n", c, n.c_str());
        KF_CHECK(tt.kernels.size() >= 3);
        KF_CHECK(streams.size() >= 2); // the GEMM ran on a side stream
        bool gemm = false;
        for (const auto &[n, c] : names)
            gemm = gemm || n.find("gemm") != std::string::npos || n.find("Gemm") != std::string::npos
                   || n.find("cutlass") != std::string::npos || n.find("xmma") != std::string::npos
                   || n.find("nvjet") != std::string::npos;
        KF_CHECK_MSG(gemm, "no GEMM kernel among the traced names");
        KF_CHECK(!tt.summary.is_null() && tt.summary["dropped"] == 0);
    }
    return kforge::runtime::test::finish("tst_profiler_inject");
}
