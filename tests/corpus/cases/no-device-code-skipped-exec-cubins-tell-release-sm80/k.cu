__device__ int hits;
__device__ __noinline__ int bump(int v) { return atomicAdd(&hits, v); }
__global__ void count(int *out) { out[threadIdx.x] = bump(threadIdx.x); }
