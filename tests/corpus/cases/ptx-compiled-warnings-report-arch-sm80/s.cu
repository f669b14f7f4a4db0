__device__ __noinline__ long long f(long long *p, int n)
{
	long long a0 = p[0], a1 = p[1], a2 = p[2], a3 = p[3], a4 = p[4], a5 = p[5], a6 = p[6], a7 = p[7];
	for (int i = 0; i < n; i++) { a0 = a0 * a1 + a2; a1 = a1 * a2 + a3; a2 = a2 * a3 + a4; a3 = a3 * a4 + a5; a4 = a4 * a5 + a6; a5 = a5 * a6 + a7; a6 = a6 * a7 + a0; a7 = a7 * a0 + a1; }
	return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
__global__ void k(long long *p, int n) { p[threadIdx.x] = f(p, n); }
