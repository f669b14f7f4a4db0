// PTX for compute_60 and compute_70: the highest not above the target (compute_70) is compiled
__device__ __noinline__ float from70(float x)
{
#if __CUDA_ARCH__ >= 700
    return x + 70.0f;
#else
    return x + 60.0f;
#endif
}
