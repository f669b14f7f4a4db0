#include <cstdio>

__device__ __noinline__ void report(int v)
{
    printf("report: %d %f %s\n", v, (double)v * 0.5, "done");
}

__global__ void k_report(int v) { report(v + 1); }
