// function-level shared variables of functions no kernel calls (d1, d2), and one two kernels share (g)
__device__ __noinline__ int d1(int x) { __shared__ int s1[8]; s1[x & 7] = x; __syncthreads(); return s1[(x + 1) & 7]; }
__device__ __noinline__ int d2(int x) { __shared__ double s2[5]; s2[x & 3] = x; __syncthreads(); return s2[1]; }
__device__ __noinline__ int g(int x) { __shared__ int sg[3]; sg[x & 1] = x; __syncthreads(); return sg[2]; }
__global__ void k1(int *out) { out[threadIdx.x] = g(out[0]); }
__global__ void k2(int *out) { out[threadIdx.x] = g(out[1]); }
