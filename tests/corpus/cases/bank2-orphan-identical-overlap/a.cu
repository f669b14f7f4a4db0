#include "cases.h"

// The jump table of sw is in .nv.constant2.<sw>; the junk step detaches
// that section from sw (sh_info 0).
static __device__ __noinline__ int sw(int op, int x)
{
    switch (op) { CASES(x) }
    return x;
}

__global__ void k_a(const int *ops, int *vals) { vals[threadIdx.x] = sw(ops[threadIdx.x], vals[0]); }
