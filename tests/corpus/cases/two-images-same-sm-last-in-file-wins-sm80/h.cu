// Each image of this file says which virtual architecture it was compiled from.
__device__ int h(int x)
{
#if __CUDA_ARCH__ >= 800
	return x << 8;
#else
	return x * 75 + 1;
#endif
}
