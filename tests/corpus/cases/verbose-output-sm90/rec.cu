// a recursive function with a stack frame and a __constant__ table, so that -v reports cmem[3] and the stack-size warning
__constant__ int rec_limits[2] = {4, 8};

__device__ __noinline__ int countdown(int n)
{
    volatile int frame[6];
    frame[n % 6] = n;
    return n <= 0 ? frame[0] : countdown(n - 1) + rec_limits[n & 1];
}

__global__ void k_countdown(int *out) { out[threadIdx.x] = countdown(threadIdx.x); }

__device__ __noinline__ int not_called(int n) { return n * 2; }
