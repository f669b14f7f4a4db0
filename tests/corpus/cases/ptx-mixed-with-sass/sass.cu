// SASS for sm_86, linked as it is
__device__ int total;
extern __device__ int from_ptx(int x);            // defined in ptxonly.cu
extern __device__ int from_older(int x);          // defined in older.cu

__global__ void sass_kernel(int *out)
{
    out[threadIdx.x] = from_ptx(threadIdx.x) + from_older(threadIdx.x);
    atomicAdd(&total, 1);
}
