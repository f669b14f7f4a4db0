__device__ int fb(int x)
{
	return x * 4 + 1;
}
