__device__ int counter;                      // defined here, extern in b.cu
extern __device__ int scale_from_b(int x);   // defined in b.cu

__device__ __noinline__ int add_from_a(int x, int y) { return x + y + counter; }

__global__ void kernel_a(int *out)
{
    out[threadIdx.x] = scale_from_b(threadIdx.x);
    atomicAdd(&counter, 1);
}
