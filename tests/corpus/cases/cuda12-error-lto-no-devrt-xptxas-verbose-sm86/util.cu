__device__ float square_of(float x) { return x * x; }

__global__ void squares(float *p) { p[threadIdx.x] = square_of(p[threadIdx.x]); }
