__device__ int fa(int x)
{
	return x * 3 + 1;
}
