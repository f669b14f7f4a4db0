__device__ __noinline__ void fb(int *p) { __shared__ char sb[40001]; sb[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = sb[threadIdx.x + 2]; }
__global__ void kb(int *p) { fb(p); }
