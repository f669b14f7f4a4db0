typedef int (*fp)(int);

__device__ __noinline__ int f(int x)
{
	return x * 3;
}

// g's address is taken too, and nothing calls it: nvlink warns for g alone.
__device__ __noinline__ int g(int x)
{
	return x + 7;
}

__device__ fp table[2] = {f, g};

__global__ void k(int *out)
{
	out[0] = table[0] != 0;
}

// Not launched from host code: without -g or -preserve-relocs the
// host object's launch list removes it.
__global__ void k2(int *out)
{
	out[0] = f(out[1]);
}

void launch(int *p)
{
	k<<<1, 1>>>(p);
}
