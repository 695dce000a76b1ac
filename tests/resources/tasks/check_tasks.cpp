// check_tasks: runs every built-in task's reference and hand-written variants on a GPU, compares each
// variant with the reference under the task's tolerance, checks that inputs are left untouched and
// outputs fully written, times both, and prints a table with the expected and the observed verdicts.
//
// It is a standalone cross-check of resources/tasks (no worker, no Qt): the shared objects come from the
// tasks_compile_* tests (build/tests/resources/tasks/so/<task>/<stem>.so) or any folder laid out the same way.
//   check_tasks --tasks <resources/tasks> --so <so folder> [--only a,b] [--trials N] [--json out.json]
// Exit status: 0 all as expected, 1 some verdict or speedup not as expected, 77 no CUDA device.
#include "kforge/kernel.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

// ---- expressions over params: numbers, identifiers, + - * / ( ), unary minus, min(a,b), max(a,b), ceil(x)
class ExprParser
{
public:
    ExprParser(const std::string &text, const std::map<std::string, double> &params)
        : s_(text)
        , params_(params)
    {
    }

    double parse()
    {
        const double v = expr();
        skipSpace();
        if (pos_ != s_.size())
            throw std::runtime_error("unexpected '" + s_.substr(pos_) + "' in \"" + s_ + "\"");
        return v;
    }

private:
    void skipSpace()
    {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
    }
    bool eat(char c)
    {
        skipSpace();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    double expr()
    {
        double v = term();
        for (;;) {
            if (eat('+'))
                v += term();
            else if (eat('-'))
                v -= term();
            else
                return v;
        }
    }
    double term()
    {
        double v = unary();
        for (;;) {
            if (eat('*'))
                v *= unary();
            else if (eat('/'))
                v /= unary();
            else
                return v;
        }
    }
    double unary()
    {
        if (eat('-'))
            return -unary();
        return primary();
    }
    double primary()
    {
        skipSpace();
        if (eat('(')) {
            const double v = expr();
            if (!eat(')'))
                throw std::runtime_error("missing ')' in \"" + s_ + "\"");
            return v;
        }
        if (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.')) {
            size_t used = 0;
            const double v = std::stod(s_.substr(pos_), &used);
            pos_ += used;
            return v;
        }
        if (pos_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
            const size_t start = pos_;
            while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
                ++pos_;
            const std::string id = s_.substr(start, pos_ - start);
            if (eat('(')) {
                std::vector<double> args{expr()};
                while (eat(','))
                    args.push_back(expr());
                if (!eat(')'))
                    throw std::runtime_error("missing ')' after " + id + "( in \"" + s_ + "\"");
                if (id == "min" && args.size() == 2)
                    return std::min(args[0], args[1]);
                if (id == "max" && args.size() == 2)
                    return std::max(args[0], args[1]);
                if (id == "ceil" && args.size() == 1)
                    return std::ceil(args[0]);
                throw std::runtime_error("unknown function " + id + " in \"" + s_ + "\"");
            }
            const auto it = params_.find(id);
            if (it == params_.end())
                throw std::runtime_error("unknown identifier " + id + " in \"" + s_ + "\"");
            return it->second;
        }
        throw std::runtime_error("expected a value in \"" + s_ + "\"");
    }

    std::string s_;
    const std::map<std::string, double> &params_;
    size_t pos_ = 0;
};

double evalValue(const json &v, const std::map<std::string, double> &params)
{
    if (v.is_number())
        return v.get<double>();
    return ExprParser(v.get<std::string>(), params).parse();
}

kf_dtype parseDtype(const std::string &s)
{
    static const std::map<std::string, kf_dtype> names{{"f32", KF_F32}, {"f16", KF_F16}, {"bf16", KF_BF16},
                                                       {"f64", KF_F64}, {"i32", KF_I32}, {"i64", KF_I64},
                                                       {"u8", KF_U8}};
    const auto it = names.find(s);
    if (it == names.end())
        throw std::runtime_error("unknown dtype " + s);
    return it->second;
}

size_t dtypeSize(kf_dtype d)
{
    switch (d) {
    case KF_F32:
    case KF_I32: return 4;
    case KF_F16:
    case KF_BF16: return 2;
    case KF_F64:
    case KF_I64: return 8;
    case KF_U8: return 1;
    }
    return 0;
}

struct Tolerance {
    double atol = 0, rtol = 0;
};

Tolerance defaultTolerance(kf_dtype d)
{
    switch (d) {
    case KF_F64: return {1e-8, 1e-8};
    case KF_F32: return {1e-4, 1e-4};
    case KF_F16: return {1e-2, 1e-2};
    case KF_BF16: return {2e-2, 2e-2};
    default: return {0, 0};
    }
}

struct TensorSpec {
    std::string name;
    kf_dtype dtype = KF_F32;
    std::vector<int64_t> shape;
    int64_t numel = 1;
    json init;
    size_t bytes() const { return static_cast<size_t>(numel) * dtypeSize(dtype); }
};

// ---- deterministic, parallel input generation (counter-based, so any element can be made independently)
uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

double uniform01(uint64_t seed, uint64_t i) // in (0, 1)
{
    return (static_cast<double>(splitmix(seed ^ splitmix(i)) >> 11) + 0.5) * 0x1.0p-53;
}

void storeValue(void *base, kf_dtype d, int64_t i, double v)
{
    switch (d) {
    case KF_F32: static_cast<float *>(base)[i] = static_cast<float>(v); break;
    case KF_F16: static_cast<__half *>(base)[i] = __float2half_rn(static_cast<float>(v)); break;
    case KF_BF16: static_cast<__nv_bfloat16 *>(base)[i] = __float2bfloat16_rn(static_cast<float>(v)); break;
    case KF_F64: static_cast<double *>(base)[i] = v; break;
    case KF_I32: static_cast<int32_t *>(base)[i] = static_cast<int32_t>(v); break;
    case KF_I64: static_cast<int64_t *>(base)[i] = static_cast<int64_t>(v); break;
    case KF_U8: static_cast<uint8_t *>(base)[i] = static_cast<uint8_t>(v); break;
    }
}

double loadValue(const void *base, kf_dtype d, int64_t i)
{
    switch (d) {
    case KF_F32: return static_cast<const float *>(base)[i];
    case KF_F16: return __half2float(static_cast<const __half *>(base)[i]);
    case KF_BF16: return __bfloat162float(static_cast<const __nv_bfloat16 *>(base)[i]);
    case KF_F64: return static_cast<const double *>(base)[i];
    case KF_I32: return static_cast<const int32_t *>(base)[i];
    case KF_I64: return static_cast<double>(static_cast<const int64_t *>(base)[i]);
    case KF_U8: return static_cast<const uint8_t *>(base)[i];
    }
    return 0;
}

template <typename F>
void parallelFor(int64_t n, F &&f)
{
    const int64_t threads = std::max<int64_t>(1, std::min<int64_t>(std::thread::hardware_concurrency(), 32));
    std::vector<std::thread> pool;
    const int64_t chunk = (n + threads - 1) / threads;
    for (int64_t t = 0; t < threads; ++t) {
        const int64_t b = t * chunk, e = std::min(n, b + chunk);
        if (b < e)
            pool.emplace_back([&f, b, e] { f(b, e); });
    }
    for (auto &th : pool)
        th.join();
}

void generate(const TensorSpec &t, uint64_t seed, std::vector<unsigned char> &host)
{
    host.assign(t.bytes(), 0);
    const std::string dist = t.init.value("dist", "normal");
    const double a = dist == "normal"     ? t.init.value("mean", 0.0)
                     : dist == "constant" ? t.init.value("value", 0.0)
                                          : t.init.value("low", 0.0);
    const double b = dist == "normal" ? t.init.value("std", 1.0) : t.init.value("high", 1.0);
    void *base = host.data();
    parallelFor(t.numel, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            double v;
            if (dist == "normal") {
                const double u1 = uniform01(seed, 2 * static_cast<uint64_t>(i));
                const double u2 = uniform01(seed, 2 * static_cast<uint64_t>(i) + 1);
                v = a + b * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
            } else if (dist == "uniform") {
                v = a + (b - a) * uniform01(seed, static_cast<uint64_t>(i));
            } else if (dist == "integers") {
                v = std::floor(a + (b - a) * uniform01(seed, static_cast<uint64_t>(i)));
                v = std::min(v, b - 1);
            } else {
                v = a;
            }
            storeValue(base, t.dtype, i, v);
        }
    });
}

// ---- kernels
struct Kernel {
    std::string label, file, expect;
    double minSpeedup = 0;
    void *handle = nullptr;
    kf_entry_fn fn = nullptr;
    std::string loadError;
};

void loadKernel(Kernel &k, const fs::path &so)
{
    k.handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!k.handle) {
        k.loadError = dlerror();
        return;
    }
    const auto *abi = static_cast<const int32_t *>(dlsym(k.handle, "kf_abi_version"));
    k.fn = reinterpret_cast<kf_entry_fn>(dlsym(k.handle, KF_ENTRY_NAME));
    if (!abi || *abi != KF_ABI_VERSION)
        k.loadError = "missing or wrong kf_abi_version";
    else if (!k.fn)
        k.loadError = "no kf_entry";
}

struct DeviceBuffer {
    void *ptr = nullptr;
    explicit DeviceBuffer(size_t bytes)
    {
        if (cudaMalloc(&ptr, std::max<size_t>(bytes, 16)) != cudaSuccess)
            throw std::runtime_error("cudaMalloc of " + std::to_string(bytes) + " bytes failed");
    }
    ~DeviceBuffer() { cudaFree(ptr); }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
};

// A failed CUDA call may leave the context unusable, so it ends the run instead of the task.
struct CudaFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        throw CudaFailure(std::string(what) + ": " + cudaGetErrorName(e));
}

kf_tensor describe(const TensorSpec &t, void *data)
{
    kf_tensor d{};
    d.data = data;
    d.dtype = t.dtype;
    d.ndim = static_cast<int32_t>(t.shape.size());
    int64_t stride = 1;
    for (int i = d.ndim - 1; i >= 0; --i) {
        d.shape[i] = t.shape[i];
        d.strides[i] = stride;
        stride *= t.shape[i];
    }
    d.numel = t.numel;
    d.name = t.name.c_str();
    return d;
}

struct Comparison {
    int64_t mismatches = 0, nonFinite = 0, firstIndex = -1;
    double maxAbs = 0, maxRel = 0, firstExpected = 0, firstGot = 0;
};

void compare(const std::vector<unsigned char> &expected, const std::vector<unsigned char> &got, const TensorSpec &t,
             Tolerance tol, Comparison &c)
{
    for (int64_t i = 0; i < t.numel; ++i) {
        const double e = loadValue(expected.data(), t.dtype, i);
        const double g = loadValue(got.data(), t.dtype, i);
        bool bad;
        if (!std::isfinite(g)) {
            ++c.nonFinite;
            bad = !(std::isnan(g) && std::isnan(e)) && g != e;
        } else {
            const double diff = std::fabs(g - e);
            c.maxAbs = std::max(c.maxAbs, diff);
            if (e != 0)
                c.maxRel = std::max(c.maxRel, diff / std::fabs(e));
            bad = !(diff <= tol.atol + tol.rtol * std::fabs(e));
        }
        if (bad) {
            if (c.mismatches == 0) {
                c.firstIndex = i;
                c.firstExpected = e;
                c.firstGot = g;
            }
            ++c.mismatches;
        }
    }
}

struct Task {
    fs::path dir;
    json spec;
    std::string name;
    std::map<std::string, double> params;
    std::vector<std::string> paramNames;
    std::vector<TensorSpec> inputs, outputs;
    std::map<kf_dtype, Tolerance> tolerance;
    bool degenerate = false;
};

Task loadTask(const fs::path &dir)
{
    Task t;
    t.dir = dir;
    std::ifstream f(dir / "task.json");
    t.spec = json::parse(f);
    t.name = t.spec.at("name").get<std::string>();
    t.degenerate = t.spec.value("degenerate", false);
    if (t.spec.contains("params"))
        for (auto it = t.spec["params"].begin(); it != t.spec["params"].end(); ++it) {
            t.params[it.key()] = it.value().get<double>();
            t.paramNames.push_back(it.key());
        }
    auto tensors = [&](const char *key, std::vector<TensorSpec> &into) {
        for (const auto &j : t.spec.at(key)) {
            TensorSpec s;
            s.name = j.at("name").get<std::string>();
            s.dtype = parseDtype(j.at("dtype").get<std::string>());
            for (const auto &dim : j.at("shape")) {
                const double v = evalValue(dim, t.params);
                s.shape.push_back(static_cast<int64_t>(std::llround(v)));
                s.numel *= s.shape.back();
            }
            s.init = j.value("init", json::object());
            into.push_back(s);
        }
    };
    tensors("inputs", t.inputs);
    tensors("outputs", t.outputs);
    for (kf_dtype d : {KF_F32, KF_F16, KF_BF16, KF_F64, KF_I32, KF_I64, KF_U8})
        t.tolerance[d] = defaultTolerance(d);
    if (t.spec.contains("tolerance"))
        for (auto it = t.spec["tolerance"].begin(); it != t.spec["tolerance"].end(); ++it)
            t.tolerance[parseDtype(it.key())] = {it.value().value("atol", 0.0), it.value().value("rtol", 0.0)};
    return t;
}

struct Row {
    std::string task, label, expect, verdict, detail, flags;
    double refMs = 0, candMs = 0, speedup = 0, minSpeedup = 0;
    bool asExpected = false;
};

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<Row> runTask(const Task &task, const fs::path &soDir, int trials, DeviceBuffer &flush, size_t flushBytes)
{
    std::vector<Row> rows;
    Kernel ref;
    ref.label = "reference";
    loadKernel(ref, soDir / task.name / "reference.so");
    std::vector<Kernel> variants;
    for (const auto &v : task.spec.value("variants", json::array())) {
        Kernel k;
        k.file = v.at("file").get<std::string>();
        k.label = v.value("label", fs::path(k.file).stem().string());
        k.expect = v.at("expect").value("verdict", "correct");
        k.minSpeedup = v.at("expect").value("min_speedup", 0.0);
        loadKernel(k, soDir / task.name / (fs::path(k.file).stem().string() + ".so"));
        variants.push_back(std::move(k));
    }
    if (!ref.loadError.empty()) {
        Row r;
        r.task = task.name;
        r.label = "reference";
        r.verdict = "load_error";
        r.detail = ref.loadError;
        rows.push_back(r);
        return rows;
    }

    std::vector<std::string> names(task.paramNames);
    std::vector<kf_param_value> pv;
    for (const auto &n : names)
        pv.push_back({n.c_str(), task.params.at(n)});
    const kf_params params{pv.data(), static_cast<int32_t>(pv.size())};

    cudaStream_t stream;
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");

    std::vector<Comparison> cmp(variants.size());
    std::vector<std::string> verdict(variants.size(), "correct"), detail(variants.size());
    std::vector<bool> mutated(variants.size(), false), constant(variants.size(), true);
    std::vector<std::vector<std::vector<unsigned char>>> firstOut(variants.size());
    std::vector<std::vector<unsigned char>> refFirst;
    bool refConstant = true;
    for (size_t v = 0; v < variants.size(); ++v)
        if (!variants[v].loadError.empty()) {
            verdict[v] = "load_error";
            detail[v] = variants[v].loadError;
        }

    std::vector<std::unique_ptr<DeviceBuffer>> in, refOut, candOut;
    std::vector<kf_tensor> inDesc, refDesc, candDesc;
    for (int trial = 0; trial < trials; ++trial) {
        in.clear();
        refOut.clear();
        candOut.clear();
        inDesc.clear();
        refDesc.clear();
        candDesc.clear();
        std::vector<std::vector<unsigned char>> inHost(task.inputs.size());
        for (size_t i = 0; i < task.inputs.size(); ++i) {
            generate(task.inputs[i], 0x5eed0000ull + 1000ull * static_cast<uint64_t>(trial) + i, inHost[i]);
            in.push_back(std::make_unique<DeviceBuffer>(task.inputs[i].bytes()));
            check(cudaMemcpy(in.back()->ptr, inHost[i].data(), inHost[i].size(), cudaMemcpyHostToDevice), "upload");
            inDesc.push_back(describe(task.inputs[i], in.back()->ptr));
        }
        for (const auto &o : task.outputs) {
            refOut.push_back(std::make_unique<DeviceBuffer>(o.bytes()));
            candOut.push_back(std::make_unique<DeviceBuffer>(o.bytes()));
            refDesc.push_back(describe(o, refOut.back()->ptr));
            candDesc.push_back(describe(o, candOut.back()->ptr));
        }
        // Reference, with poisoned outputs: an unwritten element would show up as NaN / -1 in every variant.
        for (size_t o = 0; o < task.outputs.size(); ++o)
            check(cudaMemset(refOut[o]->ptr, 0xff, task.outputs[o].bytes()), "poison");
        const int rc = ref.fn(inDesc.data(), static_cast<int32_t>(inDesc.size()), refDesc.data(),
                              static_cast<int32_t>(refDesc.size()), &params, stream);
        check(cudaStreamSynchronize(stream), "reference");
        if (rc != 0)
            throw std::runtime_error(task.name + ": reference returned " + std::to_string(rc));
        std::vector<std::vector<unsigned char>> expected(task.outputs.size());
        for (size_t o = 0; o < task.outputs.size(); ++o) {
            expected[o].resize(task.outputs[o].bytes());
            check(cudaMemcpy(expected[o].data(), refOut[o]->ptr, expected[o].size(), cudaMemcpyDeviceToHost), "download");
        }
        if (trial == 0)
            refFirst = expected;
        else if (refFirst != expected)
            refConstant = false;

        for (size_t v = 0; v < variants.size(); ++v) {
            if (verdict[v] != "correct")
                continue;
            for (size_t o = 0; o < task.outputs.size(); ++o)
                check(cudaMemset(candOut[o]->ptr, 0xff, task.outputs[o].bytes()), "poison");
            const int crc = variants[v].fn(inDesc.data(), static_cast<int32_t>(inDesc.size()), candDesc.data(),
                                           static_cast<int32_t>(candDesc.size()), &params, stream);
            const cudaError_t err = cudaStreamSynchronize(stream);
            if (err != cudaSuccess) // sticky: nothing after this can be trusted
                throw CudaFailure(task.name + "/" + variants[v].label + ": " + cudaGetErrorName(err));
            if (crc != 0) {
                verdict[v] = "error";
                detail[v] = "returned " + std::to_string(crc);
                continue;
            }
            std::vector<std::vector<unsigned char>> got(task.outputs.size());
            for (size_t o = 0; o < task.outputs.size(); ++o) {
                got[o].resize(task.outputs[o].bytes());
                check(cudaMemcpy(got[o].data(), candOut[o]->ptr, got[o].size(), cudaMemcpyDeviceToHost), "download");
                compare(expected[o], got[o], task.outputs[o], task.tolerance.at(task.outputs[o].dtype), cmp[v]);
            }
            if (trial == 0)
                firstOut[v] = got;
            else if (firstOut[v] != got)
                constant[v] = false;
            for (size_t i = 0; i < task.inputs.size(); ++i) {
                std::vector<unsigned char> now(inHost[i].size());
                check(cudaMemcpy(now.data(), in[i]->ptr, now.size(), cudaMemcpyDeviceToHost), "download");
                if (now != inHost[i]) {
                    mutated[v] = true;
                    // Restore so later variants see the same inputs as the reference did.
                    check(cudaMemcpy(in[i]->ptr, inHost[i].data(), now.size(), cudaMemcpyHostToDevice), "upload");
                }
            }
        }
    }

    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "event");
    check(cudaEventCreate(&stop), "event");
    auto timeOnce = [&](const Kernel &k, std::vector<kf_tensor> &outs) {
        check(cudaMemsetAsync(flush.ptr, 0, flushBytes, stream), "flush"); // evict inputs from L2
        check(cudaEventRecord(start, stream), "record");
        k.fn(inDesc.data(), static_cast<int32_t>(inDesc.size()), outs.data(), static_cast<int32_t>(outs.size()),
             &params, stream);
        check(cudaEventRecord(stop, stream), "record");
        check(cudaEventSynchronize(stop), "sync");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
        return static_cast<double>(ms);
    };

    for (size_t v = 0; v < variants.size(); ++v) {
        Row r;
        r.task = task.name;
        r.label = variants[v].label;
        r.expect = variants[v].expect;
        r.minSpeedup = variants[v].minSpeedup;
        const Comparison &c = cmp[v];
        if (verdict[v] == "correct" && (c.mismatches > 0 || mutated[v])) {
            verdict[v] = "incorrect";
            char buf[256];
            if (mutated[v])
                std::snprintf(buf, sizeof buf, "input mutated");
            else
                std::snprintf(buf, sizeof buf, "%lld mismatches, first at %lld: expected %.6g got %.6g",
                              static_cast<long long>(c.mismatches), static_cast<long long>(c.firstIndex),
                              c.firstExpected, c.firstGot);
            detail[v] = buf;
        }
        r.verdict = verdict[v];
        if (detail[v].empty()) {
            char buf[128];
            std::snprintf(buf, sizeof buf, "max abs %.3g, max rel %.3g", c.maxAbs, c.maxRel);
            detail[v] = buf;
        }
        r.detail = detail[v];
        if (trials > 1 && verdict[v] == "correct" && constant[v])
            r.flags = "output-constant";
        if (r.verdict == "correct" || r.verdict == "incorrect") {
            timeOnce(ref, refDesc);
            timeOnce(variants[v], candDesc);
            const double probe = timeOnce(ref, refDesc) + timeOnce(variants[v], candDesc);
            const int runs = std::clamp(static_cast<int>(600.0 / std::max(probe, 1e-3)), 5, 50);
            std::vector<double> tr, tc;
            for (int i = 0; i < runs; ++i) { // interleaved, so drifts in clock or temperature hit both
                tr.push_back(timeOnce(ref, refDesc));
                tc.push_back(timeOnce(variants[v], candDesc));
            }
            r.refMs = median(tr);
            r.candMs = median(tc);
            r.speedup = r.candMs > 0 ? r.refMs / r.candMs : 0;
        }
        r.asExpected = r.verdict == r.expect && (r.minSpeedup <= 0 || r.speedup >= r.minSpeedup);
        rows.push_back(r);
    }
    if (trials > 1) {
        Row r;
        r.task = task.name;
        r.label = "(reference)";
        r.expect = task.degenerate ? "constant" : "varies";
        r.verdict = refConstant ? "constant" : "varies";
        r.detail = "reference output across trials";
        r.asExpected = r.verdict == r.expect;
        rows.push_back(r);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(stream);
    return rows;
}

} // namespace

int main(int argc, char **argv)
{
    fs::path tasksDir, soDir, jsonOut;
    std::vector<std::string> only;
    int trials = 2;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--tasks")
            tasksDir = next();
        else if (a == "--so")
            soDir = next();
        else if (a == "--json")
            jsonOut = next();
        else if (a == "--trials")
            trials = std::max(1, std::stoi(next()));
        else if (a == "--only") {
            std::string list = next();
            size_t p = 0;
            while (p <= list.size()) {
                const size_t q = std::min(list.find(',', p), list.size());
                if (q > p)
                    only.push_back(list.substr(p, q - p));
                p = q + 1;
            }
        } else {
            std::fprintf(stderr, "usage: %s --tasks <dir> --so <dir> [--only a,b] [--trials N] [--json file]\n", argv[0]);
            return 2;
        }
    }
    if (tasksDir.empty() || soDir.empty()) {
        std::fprintf(stderr, "--tasks and --so are required\n");
        return 2;
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("SKIP: no CUDA device\n");
        return 77;
    }
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    std::printf("device: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);

    std::vector<fs::path> dirs;
    for (const auto &e : fs::directory_iterator(tasksDir))
        if (e.is_directory() && fs::exists(e.path() / "task.json")
            && (only.empty() || std::find(only.begin(), only.end(), e.path().filename().string()) != only.end()))
            dirs.push_back(e.path());
    std::sort(dirs.begin(), dirs.end());
    // PyTorch tasks (reference.py, no reference.cu) need kforge-worker's module host: torch_tasks_check.py checks them.
    std::erase_if(dirs, [](const fs::path &d) {
        std::ifstream f(d / "task.json");
        const json j = json::parse(f, nullptr, false);
        const bool torch = j.is_object() && j.value("kind", std::string("cuda")) == "torch";
        if (torch)
            std::printf("skip %s: a torch task (torch_tasks_check.py evaluates it)\n", d.filename().c_str());
        return torch;
    });

    const size_t flushBytes = std::max<size_t>(static_cast<size_t>(prop.l2CacheSize) * 4, 256u << 20);
    DeviceBuffer flush(flushBytes);
    std::vector<Row> rows;
    bool ok = true;
    for (const auto &d : dirs) {
        try {
            const Task t = loadTask(d);
            for (auto &r : runTask(t, soDir, trials, flush, flushBytes))
                rows.push_back(r);
        } catch (const CudaFailure &e) {
            rows.push_back(Row{d.filename().string(), "-", "", "cuda_error", e.what(), "", 0, 0, 0, 0, false});
            std::fprintf(stderr, "%s: %s (stopping: the CUDA context may be unusable)\n", d.filename().c_str(), e.what());
            ok = false;
            break;
        } catch (const std::exception &e) {
            rows.push_back(Row{d.filename().string(), "-", "", "harness_error", e.what(), "", 0, 0, 0, 0, false});
        }
        const Row &last = rows.back();
        std::fprintf(stderr, "done %s (%s)\n", d.filename().c_str(), last.verdict.c_str());
    }

    std::printf("%-28s %-12s %-10s %-10s %10s %10s %9s %6s  %s\n", "task", "variant", "expect", "verdict", "ref ms",
                "cand ms", "speedup", "ok", "detail");
    json out = json::array();
    for (const auto &r : rows) {
        char sp[32] = "";
        if (r.speedup > 0)
            std::snprintf(sp, sizeof sp, "%.2fx", r.speedup);
        std::string expect = r.expect;
        if (r.minSpeedup > 0)
            expect += ">=" + std::to_string(static_cast<int>(r.minSpeedup)) + "x";
        std::printf("%-28s %-12s %-10s %-10s %10.4f %10.4f %9s %6s  %s%s%s\n", r.task.c_str(), r.label.c_str(),
                    expect.c_str(), r.verdict.c_str(), r.refMs, r.candMs, sp, r.asExpected ? "yes" : "NO",
                    r.detail.c_str(), r.flags.empty() ? "" : " | ", r.flags.c_str());
        ok = ok && r.asExpected;
        out.push_back({{"task", r.task},
                       {"variant", r.label},
                       {"expect", r.expect},
                       {"min_speedup", r.minSpeedup},
                       {"verdict", r.verdict},
                       {"ref_ms", r.refMs},
                       {"cand_ms", r.candMs},
                       {"speedup", r.speedup},
                       {"as_expected", r.asExpected},
                       {"detail", r.detail},
                       {"flags", r.flags}});
    }
    if (!jsonOut.empty())
        std::ofstream(jsonOut) << out.dump(2) << "\n";
    std::printf("%s\n", ok ? "ALL AS EXPECTED" : "SOME RESULTS NOT AS EXPECTED");
    return ok ? 0 : 1;
}
