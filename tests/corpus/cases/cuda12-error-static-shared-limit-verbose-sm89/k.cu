// Two kernels with static shared memory: one at nvlink 12.x's sm_89 limit
// (0x29000 bytes with the other file's function), one 4 bytes over.
__device__ void stage(float *p);
__global__ void fits(float *p)
{
    __shared__ float big[0x28000 / 4];
    big[threadIdx.x] = p[threadIdx.x];
    stage(big);
    p[threadIdx.x] = big[threadIdx.x + 1];
}
__global__ void over(float *p)
{
    __shared__ float big[0x28004 / 4];
    big[threadIdx.x] = p[threadIdx.x];
    stage(big);
    p[threadIdx.x] = big[threadIdx.x + 2];
}
