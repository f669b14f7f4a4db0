__device__ float shared_twice(float x) { return x * 2.0f; }
__global__ void rightKernel(float *p) { p[threadIdx.x] = shared_twice(p[threadIdx.x]); }
