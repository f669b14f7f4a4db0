// SASS for sm_80 and PTX for compute_80: for sm_86 the SASS wins (equal or newer than the PTX)
__device__ __noinline__ int from_older(int x)
{
#if __CUDA_ARCH__ >= 860
    return x - 86;
#else
    return x - 80;
#endif
}
