// A device function using dynamic shared memory that no kernel calls.
__device__ __noinline__ long long dyn_user(long long x)
{
	extern __shared__ unsigned char pool[];
	pool[threadIdx.x + 1] = (unsigned char)x;
	return pool[threadIdx.x ^ 3] + x;
}
