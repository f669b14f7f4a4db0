// kernel templates with __shared__ arrays of one size: devred launches KA, KB and KC from the device
template <typename T> __global__ void KA(T *p) { __shared__ T s[16]; s[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = s[15 - threadIdx.x]; }
template <typename T> __global__ void KB(T *p) { __shared__ T s[16]; s[threadIdx.x] = p[threadIdx.x] * 2; __syncthreads(); p[threadIdx.x] = s[15 - threadIdx.x]; }
template <typename T> __global__ void KC(T *p) { __shared__ T s[16]; s[threadIdx.x] = p[threadIdx.x] + 1; __syncthreads(); p[threadIdx.x] = s[15 - threadIdx.x]; }
__global__ void devred(int *p) { KA<int><<<1, 16>>>(p); KB<int><<<1, 16>>>(p); KC<int><<<1, 16>>>(p); }
