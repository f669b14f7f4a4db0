// the kernels calling it from another file
__device__ float scale(float x, int k);
__global__ void apply(float* d, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = scale(d[i], i); }
__global__ void first(float* d) { d[0] = scale(d[0], 3); }
