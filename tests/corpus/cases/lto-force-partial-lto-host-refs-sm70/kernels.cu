// kernels and a device function, no host code
__device__ int counter;
__device__ int twice(int x) { return 2 * x; }
__global__ void launched(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]) + counter; }
__global__ void never_launched(int *p) { atomicAdd(&counter, p[0]); }
__global__ void also_never(float *f) { f[threadIdx.x] *= 0.5f; }
