// another file: a kernel its host code launches and one it does not, both using static shared memory
__device__ __noinline__ int twice(int x) { return 2 * x; }

__global__ void other_launched(int *p)
{
    __shared__ int t[8];
    t[threadIdx.x & 7] = twice(p[threadIdx.x]);
    __syncthreads();
    p[threadIdx.x] = t[(threadIdx.x + 1) & 7];
}

__global__ void other_idle(int *p)
{
    __shared__ int u[16];
    u[threadIdx.x & 15] = p[0];
    __syncthreads();
    p[1] = u[3];
}

void run_other(int *p) { other_launched<<<1, 8>>>(p); }
