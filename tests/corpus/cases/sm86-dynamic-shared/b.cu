extern __shared__ int dyn_ints[];

__device__ __noinline__ int read_dyn(int i) { return dyn_ints[i]; }

__global__ void k_dyn_via_function(int *out)
{
    __shared__ double statics[3];
    statics[threadIdx.x % 3] = 1.0;
    dyn_ints[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = read_dyn(threadIdx.x ^ 1) + (int)statics[0];
}
