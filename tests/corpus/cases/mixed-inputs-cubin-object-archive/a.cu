// compiled to a.cubin (nvcc -dc -cubin)
__device__ int a_count;                       // used by c.cu
extern __device__ int b_step(int x);          // b.o

__device__ __noinline__ int a_leaf(int x) { return x ^ a_count; }

__global__ void a_kernel(int *out)
{
    out[threadIdx.x] = b_step(threadIdx.x);
    atomicAdd(&a_count, 1);
}
