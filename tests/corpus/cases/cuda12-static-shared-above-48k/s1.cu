// s1.cu: part of the cuda12-static-shared-above-48k case
extern __device__ float g2(int i);
__global__ void ks(float *o) { __shared__ float a[8192]; a[threadIdx.x] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = a[threadIdx.x ^ 1] + g2(threadIdx.x); }
