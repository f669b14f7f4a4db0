// kernel templates with __shared__ arrays: devred launches KA then KB, other launches KC
template <typename T> __global__ void KA(T *p) { __shared__ T s[64]; s[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = s[63 - threadIdx.x]; }
template <typename T> __global__ void KB(T *p) { __shared__ T s[32]; s[threadIdx.x] = p[threadIdx.x] * 2; __syncthreads(); p[threadIdx.x] = s[31 - threadIdx.x]; }
template <typename T> __global__ void KC(T *p) { __shared__ T s[16]; s[threadIdx.x] = p[threadIdx.x] + 1; __syncthreads(); p[threadIdx.x] = s[15 - threadIdx.x]; }
__global__ void other(int *p) { KC<int><<<1, 16>>>(p); }
__global__ void devred(int *p) { KA<int><<<1, 64>>>(p); KB<int><<<1, 32>>>(p); }
