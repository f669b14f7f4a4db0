// KB again (a weak copy nvlink skips: same registers) and KD, both launched by more
template <typename T> __global__ void KB(T *p) { __shared__ T s[32]; s[threadIdx.x] = p[threadIdx.x] * 2; __syncthreads(); p[threadIdx.x] = s[31 - threadIdx.x]; }
template <typename T> __global__ void KD(T *p) { __shared__ T s[8]; s[threadIdx.x] = p[threadIdx.x] + 3; __syncthreads(); p[threadIdx.x] = s[7 - threadIdx.x]; }
__global__ void more(int *p) { KD<int><<<1, 8>>>(p); KB<int><<<1, 32>>>(p); }
