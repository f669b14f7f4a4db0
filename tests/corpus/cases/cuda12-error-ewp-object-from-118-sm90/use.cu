// Built with CUDA 12.x as nvcc -dc.
__device__ int total;

__global__ void kuse(int* p) { atomicAdd(&total, p[threadIdx.x]); }
