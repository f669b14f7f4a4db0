// Six __shared__ arrays of device functions that several kernels reach,
// largest first: a (K1, K4) at 0, b (K1, K2) after it, e (K2, K3) over a,
// d (K1, K4) in a set of its own after b, and c (K2, K3), a float4 array,
// which joins d's set: the set moves to c's alignment, d with it.
__device__ __noinline__ long long fA(long long x)
{
	__shared__ double a[128];
	a[threadIdx.x % 128] = x;
	__syncthreads();
	return a[(threadIdx.x + 1) % 128];
}
__device__ __noinline__ long long fB(long long x)
{
	__shared__ int b[129];
	b[threadIdx.x % 129] = x;
	__syncthreads();
	return b[(threadIdx.x + 1) % 129];
}
__device__ __noinline__ long long fE(long long x)
{
	__shared__ double e[32];
	e[threadIdx.x % 32] = x;
	__syncthreads();
	return e[(threadIdx.x + 1) % 32];
}
__device__ __noinline__ long long fC(long long x)
{
	__shared__ float4 c[8];
	c[threadIdx.x % 8].x = x;
	__syncthreads();
	return c[(threadIdx.x + 1) % 8].y;
}
__device__ __noinline__ long long fD(long long x)
{
	__shared__ int d[64];
	d[threadIdx.x % 64] = x;
	__syncthreads();
	return d[(threadIdx.x + 1) % 64];
}
__global__ void K1(long long *o) { o[threadIdx.x] = fA(o[0]) + fB(o[1]) + fD(o[2]); }
__global__ void K4(long long *o) { o[threadIdx.x] = fA(o[0]) + fD(o[2]); }
__global__ void K2(long long *o) { o[threadIdx.x] = fB(o[1]) + fC(o[3]) + fE(o[4]); }
__global__ void K3(long long *o) { o[threadIdx.x] = fC(o[3]) + fE(o[4]); }
