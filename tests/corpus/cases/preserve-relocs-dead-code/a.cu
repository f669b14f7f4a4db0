__device__ int unused_variable = 5;
__constant__ int unused_constant[4] = {1, 2, 3, 4};

__device__ __noinline__ int live_helper(int x) { return x + 1; }

__device__ __noinline__ int dead_leaf(int x)
{
    __shared__ int dead_shared[16];           // shared memory only used by dead code
    dead_shared[x & 15] = x;
    return dead_shared[0] * 3;
}
__device__ __noinline__ int dead_caller(int x) { return dead_leaf(x) + unused_variable; }

__global__ void k_live(int *out) { out[threadIdx.x] = live_helper(threadIdx.x); }
