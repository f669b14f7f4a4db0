__device__ int fc(int x)
{
	return x * 5 + 1;
}
