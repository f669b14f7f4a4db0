// Five __shared__ arrays of device functions that several kernels reach:
// a (K1, K4) at 0, b (K1, K2) after it, e (K2, K3) over a, c (128-aligned,
// K2, K3) after b, and the short d (K1, K4) at the start of c, not in the
// gap before it.
struct __align__(128) S128 { char c[128]; };
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
	__shared__ S128 c[1];
	c[0].c[threadIdx.x % 128] = x;
	__syncthreads();
	return c[0].c[(threadIdx.x + 1) % 128];
}
__device__ __noinline__ long long fD(long long x)
{
	__shared__ short d[1];
	d[0] = x;
	__syncthreads();
	return d[0];
}
__global__ void K1(long long *o) { o[threadIdx.x] = fA(o[0]) + fB(o[1]) + fD(o[2]); }
__global__ void K4(long long *o) { o[threadIdx.x] = fA(o[0]) + fD(o[2]); }
__global__ void K2(long long *o) { o[threadIdx.x] = fB(o[1]) + fC(o[3]) + fE(o[4]); }
__global__ void K3(long long *o) { o[threadIdx.x] = fC(o[3]) + fE(o[4]); }
