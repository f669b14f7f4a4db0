// k.cu: part of the cuda12-error-static-shared-limit-sm90 case
extern __device__ float f1(int), f2(int), f3(int);
__global__ void kfit(float *o) { __shared__ float a[5120]; a[threadIdx.x] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = a[threadIdx.x ^ 1] + f1(threadIdx.x) + f2(threadIdx.x) + f3(threadIdx.x); }
__global__ void kover(float *o) { __shared__ float a[5121]; a[threadIdx.x] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = a[threadIdx.x ^ 1] + f1(threadIdx.x) + f2(threadIdx.x) + f3(threadIdx.x); }
