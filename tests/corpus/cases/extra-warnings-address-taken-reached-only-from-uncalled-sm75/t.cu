typedef int (*fp)(int);

__device__ int g(int x);

// f calls itself and g; only k2, which -kernels-used removes, reaches
// either (through the table); h is called by k, which stays.
__device__ __noinline__ int f(int x)
{
	return x > 0 ? f(x - 1) + g(x) : 0;
}

__device__ __noinline__ int g(int x)
{
	return x * 3;
}

__device__ __noinline__ int h(int x)
{
	return x + 1;
}

__device__ fp table[3] = {f, g, h};

__global__ void k(int *out)
{
	out[0] = h(out[1]);
}

__global__ void k2(int *out)
{
	out[0] = table[out[1]](out[2]);
}
