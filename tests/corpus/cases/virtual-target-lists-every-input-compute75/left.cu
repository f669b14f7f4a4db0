extern __device__ float missingScale(float);
__device__ float shared_twice(float x) { return x + 1.0f; }
__global__ void leftKernel(float *p) { p[threadIdx.x] = missingScale(shared_twice(p[threadIdx.x])); }
