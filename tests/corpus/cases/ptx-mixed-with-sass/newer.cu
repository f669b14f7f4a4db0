// SASS for sm_80 and PTX for compute_86: for sm_86 the PTX is the closer match, and nvlink compiles it
__device__ __noinline__ int from_newer(int x)
{
#if __CUDA_ARCH__ >= 860
    return x * 86;                                // from the compute_86 PTX
#else
    return x * 80;                                // from the sm_80 SASS
#endif
}
