// kernels calling into two thin archives' members
__device__ float scale(float x);
__device__ int bump(int *p);
extern __device__ int counter;
__global__ void k_scale(float *o) { o[threadIdx.x] = scale(o[threadIdx.x]) + counter; }
__global__ void k_bump(int *p) { bump(p + threadIdx.x); }
