__device__ __noinline__ void fa(int *p) { __shared__ char sa[40000]; sa[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = sa[threadIdx.x + 1]; }
__global__ void ka(int *p) { fa(p); }
