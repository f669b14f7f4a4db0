// Each image of this file says which virtual architecture it was compiled from.
__device__ int g(int x)
{
#if __CUDA_ARCH__ >= 800
	return x * 7 + 800;
#else
	return (x ^ 0x75) - 750;
#endif
}
