#include "kforge/kernel.h"
struct Foo {};
template <typename T>
__global__ void add(T* x, int n) {
    int unused = 3;
    x[threadIdx.x] = x[threadIdx.x] + n;
}
KF_ENTRY(in, nin, out, nout, params, stream) {
    add<Foo><<<1, 32, 0, stream>>>((Foo*)out[0].data, 4);
    return 0;
}
