// the only member of libc.a (nvcc -rdc=true -lib)
extern __device__ int a_count;                // a.cubin
extern __device__ int a_leaf(int x);          // a.cubin
__device__ int c_calls;

__device__ __noinline__ int c_step(int x)
{
    atomicAdd(&c_calls, 1);
    return a_leaf(x) + a_count;
}
