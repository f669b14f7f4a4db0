// a kernel calling a function the other object defines; no host code
__device__ int scaled(int x);
__global__ void uses_scaled(int *p) { p[threadIdx.x] = scaled(p[threadIdx.x]); }
__global__ void plain(int *p) { p[0] = 7; }
