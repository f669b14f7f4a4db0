// 40001 bytes of shared memory in a device function its own kernel calls.
__device__ __noinline__ void fill_b(int *p)
{
    __shared__ char buf_b[40001];
    buf_b[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = buf_b[threadIdx.x + 2];
}
__global__ void kern_b(int *p) { fill_b(p); }
