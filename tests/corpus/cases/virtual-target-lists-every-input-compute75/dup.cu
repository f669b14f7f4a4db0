__device__ int dupCounter;
__global__ void dupKernel() { atomicAdd(&dupCounter, 1); }
