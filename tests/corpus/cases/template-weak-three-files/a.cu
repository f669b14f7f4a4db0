template <typename T> __device__ __noinline__ T clampv(T x, T lo, T hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

template <typename T> struct Acc {
    __device__ __noinline__ T add(T a, T b) const { return a + b; }
};

__device__ inline __noinline__ int shared_inline(int x) { return x * 11; }   // inline => weak

__global__ void kernel_a(int *pi, float *pf, double *pd)
{
    Acc<int> ai;
    pi[threadIdx.x] = clampv(pi[threadIdx.x], 0, 100) + ai.add(1, 2) + shared_inline(3);
    pf[threadIdx.x] = clampv(pf[threadIdx.x], 0.0f, 1.0f);
    pd[threadIdx.x] = Acc<double>().add(pd[threadIdx.x], 1.0);
}
