extern __device__ int helper(int x);          // in libdevfuncs.a (helpers.cu)
extern __device__ int counter;                // in libdevfuncs.a (helpers.cu)

__global__ void main_kernel(int *out)
{
    out[threadIdx.x] = helper(threadIdx.x) + counter;
}
