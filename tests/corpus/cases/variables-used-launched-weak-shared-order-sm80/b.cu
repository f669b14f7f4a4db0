// KC again, launched by more, which counts its launches in a __device__ variable
template <typename T> __global__ void KC(T *p) { __shared__ T s[16]; s[threadIdx.x] = p[threadIdx.x] + 1; __syncthreads(); p[threadIdx.x] = s[15 - threadIdx.x]; }
__device__ int launches;
__global__ void more(int *p) { KC<int><<<1, 16>>>(p); atomicAdd(&launches, 1); }
