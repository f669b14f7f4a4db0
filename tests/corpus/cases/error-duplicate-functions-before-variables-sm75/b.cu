// The same definitions as a.cu: each one is a duplicate.
__constant__ float ctab_pub[5];
__device__ int counter;
__global__ void noparam() { if (threadIdx.x == 0) atomicAdd(&counter, 1); }
__device__ __noinline__ int helper(int x) { return x * 3 + counter; }
__global__ void uses(float* o) { o[threadIdx.x] = ctab_pub[threadIdx.x % 5] + helper(threadIdx.x); }
