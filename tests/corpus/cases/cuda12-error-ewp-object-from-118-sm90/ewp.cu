// Built with CUDA 11.8 as nvcc -c -ewp: an extensible whole-program image.
__device__ __noinline__ int twice(int x) { return 2 * x; }

__global__ void kewp(int* p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
