__device__ int offset = 17;

__device__ int scale(int x)
{
	return x * 5 - offset;
}
