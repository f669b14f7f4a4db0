// compiled for the link's architecture only
extern __device__ int shared_total;           // defined in multi.cu
extern __device__ int square_plus(int x);     // defined in multi.cu

__device__ __noinline__ int twice(int x) { return 2 * x + shared_total; }

__global__ void single_kernel(int *out)
{
    out[threadIdx.x] = square_plus(threadIdx.x);
}
