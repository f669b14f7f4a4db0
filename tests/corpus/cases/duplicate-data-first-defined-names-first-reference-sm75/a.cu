__device__ int table[4] = {1, 2, 3, 4};
__device__ int counter;
__device__ int scale(int x)
{
	return x * 3;
}
