// multi-arch case, file a: kernels, a __device__ variable, a __constant__ table, static and dynamic shared memory
#include <cstdio>

extern __device__ int b_transform(int x);          // b.cu
extern __device__ int c_accumulate(int x);         // c.cu
template <typename T> __device__ __noinline__ T twice(T x) { return x + x; }

__device__ int a_counter;
__constant__ int a_weights[4] = {1, 3, 5, 7};
extern __shared__ int a_dynamic[];

__global__ void k_main(int *out)
{
    __shared__ int tile[64];
    tile[threadIdx.x % 64] = a_weights[threadIdx.x & 3];
    a_dynamic[threadIdx.x] = threadIdx.x;
    __syncthreads();
    int v = b_transform(tile[(threadIdx.x + 1) % 64]) + c_accumulate(a_dynamic[0]) + twice(3);
    atomicAdd(&a_counter, v);
    out[threadIdx.x] = v;
}

__global__ void k_print(int v)
{
    if (threadIdx.x == 0)
        printf("k_print %d\n", twice(v));
}
