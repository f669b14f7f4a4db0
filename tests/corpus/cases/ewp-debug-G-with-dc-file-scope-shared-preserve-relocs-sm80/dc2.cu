// nvcc -dc code with a file-scope __shared__ array two kernels reach
// through a device function, a kernel's own double array (alignment 8),
// and an extern __shared__ array.
__shared__ int counts[8];
extern __shared__ float dyn2[];
__device__ __noinline__ void bump(int i) { atomicAdd(&counts[i & 7], 1); }
__global__ void ka(float *p) { bump(threadIdx.x); dyn2[threadIdx.x] = p[0]; __syncthreads(); p[1] = dyn2[3] + counts[1]; }
__global__ void kb(float *p) { __shared__ double own[4]; own[threadIdx.x & 3] = p[2]; bump(threadIdx.x + 1); __syncthreads(); p[2] = own[1] + counts[2]; }
