extern __device__ float twice(float x);
__global__ void scale(float *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
void run(float *p) { scale<<<1, 32>>>(p); }
