// K uses dynamic shared memory; P calls big, whose 128-aligned __shared__
// array only P reaches (private to it: no module-wide .nv_debug.shared).
struct __align__(128) S128 { char c[128]; };
__global__ void K(long long *out, int n)
{
	extern __shared__ long long dyn[];
	dyn[threadIdx.x] = n;
	__syncthreads();
	out[threadIdx.x] = dyn[threadIdx.x ^ 1];
}
__device__ __noinline__ long long big(long long x)
{
	__shared__ S128 s[1];
	s[0].c[threadIdx.x % 128] = x;
	__syncthreads();
	return s[0].c[(threadIdx.x + 1) % 128];
}
__global__ void P(long long *out)
{
	out[threadIdx.x] = big(out[0]);
}
