__device__ int twice(int x);
__global__ void used_kernel(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
// Nothing launches this one: host-reference pruning removes it, unless a
// host object without kernel-reference lists is among the inputs.
__global__ void unlaunched_kernel(int *p) { p[threadIdx.x] = 7; }
void run(int *p) { used_kernel<<<1, 32>>>(p); }
