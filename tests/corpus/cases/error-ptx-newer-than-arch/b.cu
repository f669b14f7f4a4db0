extern __device__ int counter;               // defined in a.cu
extern __device__ int add_from_a(int x, int y);

__device__ __noinline__ int scale_from_b(int x) { return 3 * x + counter; }

__global__ void kernel_b(int *out)
{
    out[threadIdx.x] = add_from_a(threadIdx.x, 7);
    counter = 0;
}
