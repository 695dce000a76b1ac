#include "kforge/kernel.h"
extern "C" int missing_thing(int);
KF_ENTRY(in, nin, out, nout, params, stream) { return missing_thing(1); }
