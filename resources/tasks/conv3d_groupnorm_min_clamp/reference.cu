// Reference for conv3d_groupnorm_min_clamp: the four operations as PyTorch runs them, unfused. A direct
// convolution writes y into the output buffer, a second kernel computes GroupNorm statistics per
// (batch, group), a third normalises, applies the affine transform, min and clamp in place.
#include "kforge/kernel.h"

struct ConvShape {
    int64_t batch, cin, cout, d, h, w, k, od, oh, ow;
};

__global__ void conv3d_direct(const float *__restrict__ x, const float *__restrict__ wgt,
                              const float *__restrict__ bias, float *__restrict__ y, ConvShape s)
{
    const int64_t total = s.batch * s.cout * s.od * s.oh * s.ow;
    for (int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; idx < total;
         idx += (int64_t)gridDim.x * blockDim.x) {
        int64_t t = idx;
        const int64_t ox = t % s.ow;
        t /= s.ow;
        const int64_t oy = t % s.oh;
        t /= s.oh;
        const int64_t oz = t % s.od;
        t /= s.od;
        const int64_t co = t % s.cout;
        const int64_t b = t / s.cout;
        float acc = bias[co];
        for (int64_t ci = 0; ci < s.cin; ++ci)
            for (int64_t kz = 0; kz < s.k; ++kz)
                for (int64_t ky = 0; ky < s.k; ++ky)
                    for (int64_t kx = 0; kx < s.k; ++kx) {
                        const float xv = x[(((b * s.cin + ci) * s.d + oz + kz) * s.h + oy + ky) * s.w + ox + kx];
                        const float wv = wgt[(((co * s.cin + ci) * s.k + kz) * s.k + ky) * s.k + kx];
                        acc += xv * wv;
                    }
        y[idx] = acc;
    }
}

// One block per (batch, group); the group's channels are contiguous, so the group is one span of memory.
__global__ void groupnorm_stats(const float *__restrict__ y, float2 *__restrict__ stats, int64_t group_elems,
                                float eps)
{
    __shared__ double ssum[512];
    __shared__ double ssq[512];
    const float *g = y + blockIdx.x * group_elems;
    double sum = 0.0, sq = 0.0;
    for (int64_t i = threadIdx.x; i < group_elems; i += blockDim.x) {
        const double v = g[i];
        sum += v;
        sq += v * v;
    }
    ssum[threadIdx.x] = sum;
    ssq[threadIdx.x] = sq;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) {
            ssum[threadIdx.x] += ssum[threadIdx.x + stride];
            ssq[threadIdx.x] += ssq[threadIdx.x + stride];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        const double mean = ssum[0] / (double)group_elems;
        double var = ssq[0] / (double)group_elems - mean * mean;
        if (var < 0.0)
            var = 0.0;
        stats[blockIdx.x] = make_float2((float)mean, (float)(1.0 / sqrt(var + (double)eps)));
    }
}

__global__ void groupnorm_min_clamp(float *__restrict__ y, const float2 *__restrict__ stats,
                                    const float *__restrict__ gamma, const float *__restrict__ beta, int64_t total,
                                    int64_t spatial, int64_t cout, int64_t cpg, float min_value, float max_value)
{
    for (int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; idx < total;
         idx += (int64_t)gridDim.x * blockDim.x) {
        const int64_t bc = idx / spatial;
        const int64_t c = bc % cout;
        const int64_t b = bc / cout;
        const float2 st = stats[b * (cout / cpg) + c / cpg];
        float v = (y[idx] - st.x) * st.y * gamma[c] + beta[c];
        v = fminf(v, min_value);
        v = fminf(fmaxf(v, min_value), max_value);
        y[idx] = v;
    }
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    const kf_tensor &x = in[0];
    const kf_tensor &w = in[1];
    ConvShape s;
    s.batch = x.shape[0];
    s.cin = x.shape[1];
    s.d = x.shape[2];
    s.h = x.shape[3];
    s.w = x.shape[4];
    s.cout = w.shape[0];
    s.k = w.shape[2];
    s.od = s.d - s.k + 1;
    s.oh = s.h - s.k + 1;
    s.ow = s.w - s.k + 1;
    const int64_t groups = (int64_t)kf_param(params, "G", 8);
    const float eps = (float)kf_param(params, "eps", 1e-5);
    const float min_value = (float)kf_param(params, "min_value", 0.0);
    const float max_value = (float)kf_param(params, "max_value", 1.0);
    if (groups <= 0 || s.cout % groups != 0)
        return cudaErrorInvalidValue;
    const int64_t cpg = s.cout / groups;
    const int64_t spatial = s.od * s.oh * s.ow;
    const int64_t total = s.batch * s.cout * spatial;
    float *y = static_cast<float *>(out[0].data);

    const unsigned blocks = (unsigned)((total + 255) / 256 < 1048576 ? (total + 255) / 256 : 1048576);
    conv3d_direct<<<blocks, 256, 0, stream>>>(static_cast<const float *>(x.data), static_cast<const float *>(w.data),
                                              static_cast<const float *>(in[2].data), y, s);

    float2 *stats = nullptr;
    cudaError_t err = cudaMallocAsync(reinterpret_cast<void **>(&stats), sizeof(float2) * s.batch * groups, stream);
    if (err != cudaSuccess)
        return err;
    groupnorm_stats<<<(unsigned)(s.batch * groups), 512, 0, stream>>>(y, stats, cpg * spatial, eps);
    groupnorm_min_clamp<<<blocks, 256, 0, stream>>>(y, stats, static_cast<const float *>(in[3].data),
                                                    static_cast<const float *>(in[4].data), total, spatial, s.cout,
                                                    cpg, min_value, max_value);
    cudaFreeAsync(stats, stream);
    return cudaGetLastError();
}
