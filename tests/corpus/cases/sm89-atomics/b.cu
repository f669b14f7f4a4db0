extern __device__ unsigned long long cas_target;
extern __device__ unsigned long long cas_increment();

__device__ __noinline__ int sys_cas(int *p, int expect, int desired)
{
    return atomicCAS_system(p, expect, desired);
}

__global__ void k_more(int *p, unsigned long long *q)
{
    q[threadIdx.x] = cas_increment() + atomicMin((unsigned long long *)&cas_target, 5ull);
    sys_cas(p, 0, 1);
    atomicOr(p + 1, 1 << (threadIdx.x & 31));
}
