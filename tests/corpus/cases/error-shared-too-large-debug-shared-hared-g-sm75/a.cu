// 40000 bytes of shared memory in a device function its own kernel calls.
__device__ __noinline__ void fill_a(int *p)
{
    __shared__ char buf_a[40000];
    buf_a[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = buf_a[threadIdx.x + 1];
}
__global__ void kern_a(int *p) { fill_a(p); }
