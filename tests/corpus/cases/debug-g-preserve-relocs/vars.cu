// -G device variables: __device__ and __constant__ (initialised or not, static), function-level shared memory reached by one kernel (private) or two (global), dynamic shared memory
#include <cstdio>
__device__ int d_counter;
__device__ float d_table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__constant__ int c_coeffs[4] = {3, 5, 7, 9};
__constant__ float c_scale;
static __device__ int s_hidden = 11;
extern __device__ int u_total;
extern __shared__ int dyn_buf[];

__device__ __noinline__ int use_global_shared(int v)
{
    __shared__ char tag[5];
    tag[threadIdx.x % 5] = v;
    __syncthreads();
    return tag[0] + dyn_buf[1];
}

__device__ __noinline__ int use_private_shared(int v)
{
    __shared__ short scratch[7];
    __shared__ long long acc;
    scratch[threadIdx.x % 7] = v;
    acc = v;
    __syncthreads();
    return scratch[0] + (int)acc + use_global_shared(v);
}

__global__ void k_vars(int *out)
{
    __shared__ double own[3];
    own[threadIdx.x % 3] = c_scale;
    dyn_buf[threadIdx.x] = 1;
    atomicAdd(&d_counter, 1);
    out[threadIdx.x] = use_global_shared((int)own[0]) + c_coeffs[threadIdx.x & 3] + s_hidden + (int)d_table[1] + u_total;
}

__global__ void k_vars2(int *out)
{
    __shared__ int mine[3];
    mine[threadIdx.x % 3] = 1;
    out[0] = use_private_shared(mine[0]) + dyn_buf[2];
}

__global__ void k_big(int *out)
{
    __shared__ int big[40];
    big[threadIdx.x % 40] = 1;
    dyn_buf[threadIdx.x] = 2;
    out[0] = big[3];
    printf("%d\n", big[0]);
}
