// Edge inputs on a real GPU (label gpu; exits 77 without one): TensorSet::generate in every InputRange is
// reproducible from its seed, Scaled widens the spread by the factor, Special mixes in about 1 element in 32
// of the dtype's special values, a declared normal has the normal's mean, spread and tail with the two
// elements of each Box-Muller pair uncorrelated, and no range breaks what the task declares (an index input stays in its
// bounds, a positive input positive, no input becomes NaN or Inf). Also the judge's comparison kernel
// (gpu::compare): its 16-byte path and its element path (a tensor that is not 16-byte aligned, the tail past
// the last whole vector) count the same mismatches and find the same first one, for every dtype width.
#include "check.h"
#include "core/runtime/worker/cudacheck.h"
#include "core/runtime/worker/devicekernels.h"
#include "core/runtime/worker/tensorset.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace kforge::runtime;

namespace {

constexpr int64_t kN = 1 << 20;

TensorSpec spec(const char *name, Dtype dtype, InitSpec::Kind kind, double a, double b)
{
    TensorSpec t;
    t.name = name;
    t.dtype = dtype;
    t.shape = {ShapeDim{std::to_string(kN), true, kN}};
    t.init = InitSpec{kind, a, b};
    return t;
}

const std::vector<TensorSpec> kInputs{spec("x", Dtype::F32, InitSpec::Kind::Normal, 0, 1),
                                      spec("w", Dtype::BF16, InitSpec::Kind::Uniform, 0.5, 1.5),
                                      spec("idx", Dtype::I32, InitSpec::Kind::Integers, -100, 100),
                                      spec("bytes", Dtype::U8, InitSpec::Kind::Integers, 0, 256),
                                      spec("h", Dtype::F16, InitSpec::Kind::Normal, 0, 1),
                                      spec("d", Dtype::F64, InitSpec::Kind::Normal, 0, 1)};

std::vector<unsigned char> download(const TensorSet &s, std::size_t i)
{
    std::vector<unsigned char> host(s.buffer(i).bytes());
    KF_CUDA(cudaMemcpy(host.data(), s.buffer(i).get(), host.size(), cudaMemcpyDeviceToHost));
    return host;
}

template <typename T>
std::vector<double> values(const std::vector<unsigned char> &bytes)
{
    std::vector<double> v(bytes.size() / sizeof(T));
    for (std::size_t i = 0; i < v.size(); ++i) {
        T x;
        std::memcpy(&x, bytes.data() + i * sizeof(T), sizeof(T));
        if constexpr (std::is_same_v<T, __half>)
            v[i] = __half2float(x);
        else if constexpr (std::is_same_v<T, __nv_bfloat16>)
            v[i] = __bfloat162float(x);
        else
            v[i] = static_cast<double>(x);
    }
    return v;
}

double stddev(const std::vector<double> &v)
{
    double s = 0, ss = 0;
    for (double x : v) {
        s += x;
        ss += x * x;
    }
    const double mean = s / static_cast<double>(v.size());
    return std::sqrt(ss / static_cast<double>(v.size()) - mean * mean);
}

void run(cudaStream_t stream)
{
    TensorSet a(kInputs), b(kInputs);
    // Declared: the same seed gives the same data, another seed other data.
    a.generate(7, stream);
    b.generate(7, stream);
    KF_CUDA(cudaStreamSynchronize(stream));
    for (std::size_t i = 0; i < kInputs.size(); ++i)
        KF_CHECK_MSG(download(a, i) == download(b, i), kInputs[i].name);
    b.generate(8, stream);
    KF_CUDA(cudaStreamSynchronize(stream));
    KF_CHECK(download(a, 0) != download(b, 0));
    const double declaredStd = stddev(values<float>(download(a, 0)));
    KF_CHECK_MSG(std::fabs(declaredStd - 1) < 0.01, std::to_string(declaredStd));
    // The float path makes each pair of elements from one Box-Muller draw: mean 0, the normal's tail share
    // (|z| > 3: 0.27%), and the two elements of a pair uncorrelated; the f16 and f64 tensors the same (f64: its
    // own pair path in double).
    for (const std::vector<double> &z :
         {values<float>(download(a, 0)), values<__half>(download(a, 4)), values<double>(download(a, 5))}) {
        double sum = 0, pair = 0;
        int64_t tail = 0;
        for (std::size_t i = 0; i < z.size(); ++i) {
            sum += z[i];
            tail += std::fabs(z[i]) > 3;
            if (i % 2 == 1)
                pair += z[i - 1] * z[i];
        }
        const double n = static_cast<double>(z.size());
        KF_CHECK_MSG(std::fabs(sum / n) < 0.005, "mean " + std::to_string(sum / n));
        KF_CHECK_MSG(tail > n * 0.0022 && tail < n * 0.0032, "share beyond 3 sigma " + std::to_string(tail / n));
        KF_CHECK_MSG(std::fabs(pair / (n / 2)) < 0.01, "pair correlation " + std::to_string(pair / (n / 2)));
    }
    // The f64 values are full doubles, not floats widened (a kernel must not get away with float arithmetic).
    int64_t widened = 0;
    for (double d : values<double>(download(a, 5)))
        widened += static_cast<double>(static_cast<float>(d)) == d;
    KF_CHECK_MSG(widened < kN / 1000, std::to_string(widened) + " f64 inputs are exact floats");

    // Scaled x16: sigma 16, the positive uniform [8, 24], integer inputs as declared.
    b.generate(7, stream, InputRange::Scaled, 16);
    KF_CUDA(cudaStreamSynchronize(stream));
    const double scaledStd = stddev(values<float>(download(b, 0)));
    KF_CHECK_MSG(std::fabs(scaledStd - 16) < 0.16, std::to_string(scaledStd));
    for (double w : values<__nv_bfloat16>(download(b, 1)))
        if (!(w >= 8 && w <= 24)) {
            KF_CHECK_MSG(false, "scaled w out of [8, 24]: " + std::to_string(w));
            break;
        }
    KF_CHECK(download(b, 2) == download(a, 2) && download(b, 3) == download(a, 3));
    // Scaled x65536 on f16 (sigma 65536 > 65504): the values beyond the dtype's max saturate, never Inf.
    b.generate(7, stream, InputRange::Scaled, 4096 * 16);
    KF_CUDA(cudaStreamSynchronize(stream));
    int saturated = 0;
    for (double h : values<__half>(download(b, 4))) {
        KF_CHECK(std::isfinite(h));
        saturated += std::fabs(h) == 65504;
    }
    KF_CHECK_MSG(saturated > 0, "no f16 value reached the dtype's max at sigma 65536");

    // Special: about 1/32 of the elements, reproducible, inside the declared bounds.
    b.generate(7, stream, InputRange::Special, 2);
    TensorSet c(kInputs);
    c.generate(7, stream, InputRange::Special, 2);
    KF_CUDA(cudaStreamSynchronize(stream));
    KF_CHECK(download(b, 0) == download(c, 0));
    const std::vector<double> x = values<float>(download(b, 0));
    int special = 0, negZero = 0, denorm = 0, large = 0;
    for (double v : x) {
        KF_CHECK(std::isfinite(v));
        const double m = std::fabs(v);
        if (v == 0 || m == 0x1p-126 || m == 0x1p-149 || m == std::numeric_limits<float>::max() / 2)
            ++special;
        negZero += v == 0 && std::signbit(v);
        denorm += m == 0x1p-149;
        large += m == static_cast<double>(std::numeric_limits<float>::max() / 2);
    }
    const double share = static_cast<double>(special) / static_cast<double>(x.size());
    KF_CHECK_MSG(share > 0.025 && share < 0.04, std::to_string(share));
    KF_CHECK(negZero > 0 && denorm > 0 && large > 0);
    for (double w : values<__nv_bfloat16>(download(b, 1)))
        if (!(w > 0) || !std::isfinite(w)) {
            KF_CHECK_MSG(false, "special w not positive: " + std::to_string(w));
            break;
        }
    int lows = 0, highs = 0;
    for (double i : values<int32_t>(download(b, 2))) {
        if (!(i >= -100 && i < 100)) {
            KF_CHECK_MSG(false, "index out of range: " + std::to_string(i));
            break;
        }
        lows += i == -100;
        highs += i == 99;
    }
    // Declared, each value has 1/200 of the elements; the specials add about 1/128 each.
    KF_CHECK_MSG(lows > kN / 200 + kN / 300 && highs > kN / 200 + kN / 300,
                 std::to_string(lows) + " " + std::to_string(highs));
    for (double h : values<__half>(download(b, 4)))
        KF_CHECK(std::isfinite(h));
}

// `n` elements of `bytes` each, the second copy differing at `bad` (each index changed in its low byte, which
// every dtype here tells apart with atol = rtol = 0), compared from offset `shift` elements.
void compareCase(int dtype, std::size_t bytes, int64_t n, int64_t shift, cudaStream_t stream)
{
    const std::vector<int64_t> bad{3, 5, n / 2 + 1, n - 1};
    std::vector<unsigned char> a(static_cast<std::size_t>(n + shift) * bytes);
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = static_cast<unsigned char>((i * 2654435761u) >> 13) | 0x10; // no NaN patterns: 0x10 in every byte
    if (dtype == gpu::F32 || dtype == gpu::F64 || dtype == gpu::F16 || dtype == gpu::BF16)
        for (int64_t i = 0; i < n + shift; ++i)
            a[static_cast<std::size_t>(i) * bytes + bytes - 1] = 0x3c; // a small exponent: finite, no NaN or Inf
    std::vector<unsigned char> b = a;
    for (int64_t i : bad)
        b[static_cast<std::size_t>(i + shift) * bytes] ^= 0x01;
    void *da = nullptr, *db = nullptr;
    KF_CUDA(cudaMalloc(&da, a.size()));
    KF_CUDA(cudaMalloc(&db, b.size()));
    KF_CUDA(cudaMemcpy(da, a.data(), a.size(), cudaMemcpyHostToDevice));
    KF_CUDA(cudaMemcpy(db, b.data(), b.size(), cudaMemcpyHostToDevice));
    gpu::CompareStats *stats = nullptr;
    KF_CUDA(cudaMalloc(&stats, sizeof *stats));
    KF_CUDA(gpu::resetCompareStats(stats, stream));
    KF_CUDA(gpu::compare(static_cast<char *>(da) + shift * bytes, static_cast<char *>(db) + shift * bytes, dtype, n, 0, 0,
                         stats, stream));
    gpu::CompareStats h{};
    KF_CUDA(cudaMemcpyAsync(&h, stats, sizeof h, cudaMemcpyDeviceToHost, stream));
    KF_CUDA(cudaStreamSynchronize(stream));
    const std::string what = "dtype " + std::to_string(dtype) + " shift " + std::to_string(shift) + ": "
                             + std::to_string(h.mismatches) + " mismatches, first " + std::to_string(h.firstIndex);
    KF_CHECK_MSG(h.mismatches == bad.size() && h.firstIndex == 3 && h.nanCount == 0 && h.infCount == 0, what);
    cudaFree(da);
    cudaFree(db);
    cudaFree(stats);
}

void compareChecks(cudaStream_t stream)
{
    const std::vector<std::pair<int, std::size_t>> dtypes{{gpu::F32, 4}, {gpu::F64, 8}, {gpu::F16, 2},
                                                          {gpu::BF16, 2}, {gpu::I32, 4}, {gpu::U8, 1}};
    for (const auto &[dtype, bytes] : dtypes)
        for (int64_t shift : {0, 1})
            compareCase(dtype, bytes, 1000003, shift, stream);
}

} // namespace

int main()
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
        kforge::runtime::test::skip("no GPU");
    cudaStream_t stream = nullptr;
    KF_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    try {
        run(stream);
        compareChecks(stream);
    } catch (const CudaFailure &e) {
        KF_CHECK_MSG(false, e.where + ": " + cudaErrorText(e.code));
    }
    cudaStreamDestroy(stream);
    return kforge::runtime::test::finish("tst_inputs_gpu");
}
