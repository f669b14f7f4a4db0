// one file compiled with -G: a kernel calling two __noinline__ device functions, and one nobody calls
__device__ __noinline__ int square(int x) { return x * x; }
__device__ __noinline__ int add_one(int x) { return square(x) + 1; }
__device__ __noinline__ int never_called(int x) { return x - 42; }

__global__ void k_single(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = add_one(i);
}
