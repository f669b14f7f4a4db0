__device__ __noinline__ int twist(int v) { return (v << 3) ^ (v >> 2); }

__global__ void churn(int *p) { p[threadIdx.x] = twist(p[threadIdx.x]); }
