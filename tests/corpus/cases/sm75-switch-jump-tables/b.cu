#include "cases.h"

__device__ __noinline__ int dispatch_b(int op, int x)
{
    switch (op) { CASES(x) }
    switch (op + 1) { CASES(x) }
    return x;
}

__global__ void k_switch_b(const int *ops, int *vals) { vals[threadIdx.x] = dispatch_b(ops[threadIdx.x], vals[0]); }
