// K1 and K2 reach a 16-aligned function-level __shared__ array, KX uses extern __shared__, K no shared memory
template <typename T> __device__ T twice(T *p) { __shared__ __align__(16) T s[32]; s[threadIdx.x] = p[threadIdx.x]; __syncthreads(); return s[31 - threadIdx.x] * 2; }
__global__ void K1(int *p) { p[threadIdx.x] = twice(p); }
__global__ void K2(int *p) { p[threadIdx.x] = twice(p) + 1; }
__global__ void KX(int *p) { extern __shared__ int dyn[]; dyn[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = dyn[31 - threadIdx.x]; }
__global__ void K(int *p) { p[threadIdx.x] = 3; }
