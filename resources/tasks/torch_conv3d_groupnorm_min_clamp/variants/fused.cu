// .cu candidate for the torch task Conv3d -> GroupNorm -> min -> clamp. Inputs: the forward argument x, then the
// module's parameters conv.weight, conv.bias, norm.weight, norm.bias; groups, min_value and max_value are params.
// Honest fused candidate: one block per (batch, group). Pass 1 computes the group's convolution outputs
// only to accumulate the GroupNorm statistics; pass 2 recomputes them, normalises and applies min and
// clamp while writing. The intermediate tensor never touches memory.
#include "kforge/kernel.h"

struct ConvShape {
    int cin, d, h, w, k, od, oh, ow, cout, cpg;
};

__device__ __forceinline__ float conv_at(const float *__restrict__ xb, const float *__restrict__ ws, float bias,
                                         const ConvShape &s, int oz, int oy, int ox)
{
    float acc = bias;
    for (int ci = 0; ci < s.cin; ++ci)
        for (int kz = 0; kz < s.k; ++kz)
            for (int ky = 0; ky < s.k; ++ky) {
                const float *xr = xb + ((int64_t)(ci * s.d + oz + kz) * s.h + oy + ky) * s.w + ox;
                const float *wr = ws + ((ci * s.k + kz) * s.k + ky) * s.k;
                for (int kx = 0; kx < s.k; ++kx)
                    acc = fmaf(__ldg(xr + kx), wr[kx], acc);
            }
    return acc;
}

__global__ void fused_conv_gn_min_clamp(const float *__restrict__ x, const float *__restrict__ wgt,
                                        const float *__restrict__ cbias, const float *__restrict__ gamma,
                                        const float *__restrict__ beta, float *__restrict__ out, ConvShape s,
                                        int groups, float eps, float min_value, float max_value)
{
    extern __shared__ float wsm[]; // the group's filters: cpg * cin * k^3 floats
    __shared__ double red_sum[32];
    __shared__ double red_sq[32];
    __shared__ float s_mean, s_rstd;

    const int b = blockIdx.x / groups;
    const int g = blockIdx.x % groups;
    const int filter = s.cin * s.k * s.k * s.k;
    for (int i = threadIdx.x; i < s.cpg * filter; i += blockDim.x)
        wsm[i] = wgt[(int64_t)g * s.cpg * filter + i];
    __syncthreads();

    const float *xb = x + (int64_t)b * s.cin * s.d * s.h * s.w;
    const int spatial = s.od * s.oh * s.ow;
    const int n = s.cpg * spatial;

    float sum = 0.0f, sq = 0.0f;
    for (int e = threadIdx.x; e < n; e += blockDim.x) {
        const int lc = e / spatial;
        int r = e % spatial;
        const int ox = r % s.ow;
        r /= s.ow;
        const int oy = r % s.oh;
        const int oz = r / s.oh;
        const float v = conv_at(xb, wsm + lc * filter, cbias[g * s.cpg + lc], s, oz, oy, ox);
        sum += v;
        sq += v * v;
    }
    double dsum = sum, dsq = sq;
    for (int off = 16; off > 0; off /= 2) {
        dsum += __shfl_down_sync(0xffffffffu, dsum, off);
        dsq += __shfl_down_sync(0xffffffffu, dsq, off);
    }
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) {
        red_sum[warp] = dsum;
        red_sq[warp] = dsq;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        double ts = 0.0, tq = 0.0;
        for (int i = 0; i < (int)(blockDim.x / 32); ++i) {
            ts += red_sum[i];
            tq += red_sq[i];
        }
        const double mean = ts / n;
        double var = tq / n - mean * mean;
        if (var < 0.0)
            var = 0.0;
        s_mean = (float)mean;
        s_rstd = (float)(1.0 / sqrt(var + (double)eps));
    }
    __syncthreads();

    const float mean = s_mean, rstd = s_rstd;
    float *ob = out + ((int64_t)b * s.cout + (int64_t)g * s.cpg) * spatial;
    for (int e = threadIdx.x; e < n; e += blockDim.x) {
        const int lc = e / spatial;
        int r = e % spatial;
        const int ox = r % s.ow;
        r /= s.ow;
        const int oy = r % s.oh;
        const int oz = r / s.oh;
        const int c = g * s.cpg + lc;
        const float v = conv_at(xb, wsm + lc * filter, cbias[c], s, oz, oy, ox);
        float y = (v - mean) * rstd * gamma[c] + beta[c];
        y = fminf(y, min_value);
        ob[e] = fminf(fmaxf(y, min_value), max_value);
    }
}

KF_ENTRY(in, nin, out, nout, params, stream)
{
    (void)nin;
    (void)nout;
    const kf_tensor &x = in[0];
    const kf_tensor &w = in[1];
    const int groups = (int)kf_param(params, "groups", 8);
    ConvShape s;
    s.cin = (int)x.shape[1];
    s.d = (int)x.shape[2];
    s.h = (int)x.shape[3];
    s.w = (int)x.shape[4];
    s.cout = (int)w.shape[0];
    s.k = (int)w.shape[2];
    s.od = s.d - s.k + 1;
    s.oh = s.h - s.k + 1;
    s.ow = s.w - s.k + 1;
    if (groups <= 0 || s.cout % groups != 0)
        return cudaErrorInvalidValue;
    s.cpg = s.cout / groups;
    const size_t smem = sizeof(float) * s.cpg * s.cin * s.k * s.k * s.k;
    const unsigned blocks = (unsigned)(x.shape[0] * groups);
    fused_conv_gn_min_clamp<<<blocks, 512, smem, stream>>>(
        static_cast<const float *>(x.data), static_cast<const float *>(w.data), static_cast<const float *>(in[2].data),
        static_cast<const float *>(in[3].data), static_cast<const float *>(in[4].data),
        static_cast<float *>(out[0].data), s, groups, 1e-5f /* nn.GroupNorm's default eps */,
        (float)kf_param(params, "min_value", 0.0), (float)kf_param(params, "max_value", 1.0));
    return cudaGetLastError();
}
