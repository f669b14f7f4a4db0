// managed-variables, file m1: __managed__ variables defined here, used in a kernel and (extern) in m2.cu
__managed__ int counter[4];
__managed__ float scale = 2.5f;
extern __device__ float twice(float);
__global__ void kmanaged(float *o) { atomicAdd(&counter[threadIdx.x & 3], 1); o[threadIdx.x] = twice(o[threadIdx.x]) * scale; }
