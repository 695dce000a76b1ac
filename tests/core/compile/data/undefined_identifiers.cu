#include "kforge/kernel.h"
__global__ void f(float* x){ x[0] = y; }
int g() { return "a"; }
KF_ENTRY(in, nin, out, nout, params, stream) { undefined_fn(); return 0; }
