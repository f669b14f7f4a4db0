// extern __shared__ arrays (used in a kernel and in a device function) next to a function-level shared variable two kernels share
extern __shared__ int dyn1[];
extern __shared__ double dyn2[];
__device__ __noinline__ int f(int x) { dyn1[x] = x; __syncthreads(); return dyn1[x + 1]; }
__device__ __noinline__ int g(int x) { __shared__ int sg[3]; sg[x & 1] = x; __syncthreads(); return sg[2]; }
__global__ void k1(int *out) { __shared__ int t[16]; t[threadIdx.x % 16] = 1; __syncthreads(); out[threadIdx.x] = t[3] + f(out[0]) + g(1); }
__global__ void k2(int *out) { dyn2[threadIdx.x] = 2; __syncthreads(); out[threadIdx.x] = dyn2[1] + g(2); }
__global__ void k3(int *out) { out[threadIdx.x] = 3; }
