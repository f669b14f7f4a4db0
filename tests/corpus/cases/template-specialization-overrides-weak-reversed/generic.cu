template <typename T> __device__ __noinline__ T scale(T x) { return x * 2; }

// generic.cu does not see the specialization: scale<int> is instantiated
// implicitly here (a weak symbol); special.cu defines scale<int> explicitly
// (a strong symbol) which must replace it.
__global__ void k_generic(int *out, float *f)
{
    out[threadIdx.x] = scale(out[threadIdx.x]);
    f[threadIdx.x] = scale(f[threadIdx.x]);
}
