// compiled without -rdc: a complete program of its own. It defines the same
// names as a.cu and b.cu; nvlink does not look at this device code at all.
__device__ int counter = 42;

__device__ __noinline__ int scale_from_b(int x) { return x - counter; }

__global__ void whole_kernel(int *out)
{
    out[threadIdx.x] = scale_from_b(threadIdx.x);
}
