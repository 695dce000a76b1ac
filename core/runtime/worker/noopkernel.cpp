// The timing baseline's library (libkforge-noop.so beside kforge-worker): kf_entry does nothing and returns 0.
// A host that loads it runs the same batch as the reference and the candidate, so the judge measures what a
// batch costs besides the calls: the crossing between the two processes, the input generation, the L2 flush.
#include "kforge/kernel.h"

KF_ENTRY(inputs, num_inputs, outputs, num_outputs, params, stream)
{
    (void)inputs;
    (void)num_inputs;
    (void)outputs;
    (void)num_outputs;
    (void)params;
    (void)stream;
    return 0;
}
