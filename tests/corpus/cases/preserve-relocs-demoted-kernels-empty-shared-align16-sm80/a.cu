// K, which the host launches, uses dynamic shared memory; D1 and D3, which
// it does not, have no shared memory of their own, and D1 calls a function
// whose 16-aligned __shared__ array no kept kernel reaches (the module-wide
// .nv_debug.shared keeps it, aligned to 16).
__device__ __noinline__ long long pairs(long long x)
{
	__shared__ double2 sh[3];
	sh[threadIdx.x % 3].x = x;
	__syncthreads();
	return sh[(threadIdx.x + 1) % 3].y;
}
__global__ void K(long long *out, int n)
{
	extern __shared__ long long dyn[];
	dyn[threadIdx.x] = n;
	__syncthreads();
	out[threadIdx.x] = dyn[threadIdx.x ^ 1];
}
__global__ void D1(long long *out)
{
	out[threadIdx.x] = pairs(out[1]);
}
__global__ void D3(long long *out)
{
	out[threadIdx.x] = out[1] + 1;
}
