// s3.cu: part of the cuda12-static-shared-above-48k case
extern __device__ float g(int i);
__global__ void kt(float *o) { __shared__ float c[6144]; c[threadIdx.x] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = c[threadIdx.x ^ 1] + g(threadIdx.x); }
__global__ void ku(float *o) { __shared__ float c[9000]; c[threadIdx.x] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = c[threadIdx.x ^ 1] + g(threadIdx.x); }
