// A warp sum in a loop of shuffles and a kernel with a data-dependent loop:
// ptxas writes YIELDs for sm_70 in both, each with its pair of YIELD relocations.
__device__ __noinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

__global__ void k_sum(float *p)
{
    p[threadIdx.x] = warp_sum(p[threadIdx.x]);
}
