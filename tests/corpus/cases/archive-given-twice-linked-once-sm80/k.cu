// a kernel using two libraries that need each other
__device__ int ping(int n);
__global__ void k(int *p) { p[threadIdx.x] = ping(p[threadIdx.x]); }
