#include "kforge/kernel.h"
__global__ void scale(const float* a, float* c, int n) {
  __shared__ float buf[256];
  int i = blockIdx.x*blockDim.x+threadIdx.x;
  if (i<n) { buf[threadIdx.x]=a[i]; __syncthreads(); c[i]=buf[255-threadIdx.x]*2.f; }
}
template<int N> __global__ void tk(float* x){ x[threadIdx.x]*=N; }
KF_ENTRY(in, nin, out, nout, params, stream) {
  int n = (int)in[0].numel;
  scale<<<(n+255)/256,256,0,stream>>>((const float*)in[0].data,(float*)out[0].data,n);
  tk<3><<<1,32,0,stream>>>((float*)out[0].data);
  return (int)cudaGetLastError();
}
