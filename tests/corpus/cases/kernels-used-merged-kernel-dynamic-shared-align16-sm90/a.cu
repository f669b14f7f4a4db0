// K launches L, which uses dynamic shared memory and has none of its own;
// R, which -kernels-used leaves out, calls a function with a 128-aligned
// __shared__ array (a module-wide .nv_debug.shared kept, aligned to 128).
struct __align__(128) S128 { char c[128]; };
__global__ void L(long long *out, int n);
__global__ void K(long long *out)
{
	if (threadIdx.x == 0)
		L<<<1, 32, 256>>>(out, 1);
}
__global__ void L(long long *out, int n)
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
__global__ void R(long long *out)
{
	out[threadIdx.x] = big(out[0]);
}
