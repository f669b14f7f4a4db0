// Built with CUDA 11.8 as nvcc -c -ewp: an extensible whole-program image.
__device__ __noinline__ int thrice(int x) { return 3 * x; }

__global__ void kewp(int* p) { p[threadIdx.x] = thrice(p[threadIdx.x]); }
