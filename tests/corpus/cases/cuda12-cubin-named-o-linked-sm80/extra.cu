__device__ int bias;
__global__ void biased(int *p) { p[threadIdx.x] += bias; }
