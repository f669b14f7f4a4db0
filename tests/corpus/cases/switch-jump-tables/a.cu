#include "cases.h"

extern __device__ int dispatch_b(int op, int x);

__device__ __noinline__ int dispatch_a(int op, int x)
{
    switch (op) { CASES(x) }
    return x;
}

__global__ void k_switch(const int *ops, int *vals)
{
    int x = vals[threadIdx.x];
    switch (ops[threadIdx.x] & 15) { CASES(x) }          // jump table in the kernel itself
    vals[threadIdx.x] = dispatch_a(ops[threadIdx.x], x) + dispatch_b(ops[threadIdx.x] >> 4, x);
}
