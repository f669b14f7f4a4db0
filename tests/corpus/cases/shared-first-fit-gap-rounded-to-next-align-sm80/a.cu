// Two kernels reach three __shared__ arrays of two device functions (through
// a function pointer and directly): a 516-byte int array, then a double[3]
// and a short[1]; the short fits in the 4-byte gap before the double only if
// its end, rounded to the double's alignment, stays short of it.
__device__ __noinline__ long long big(long long x)
{
	__shared__ int words[129];
	words[threadIdx.x % 129] = (int)x;
	__syncthreads();
	return words[(threadIdx.x + 1) % 129];
}
__device__ __noinline__ long long small(long long x)
{
	__shared__ double d3[3];
	__shared__ short s1[1];
	d3[threadIdx.x % 3] = (double)x;
	s1[0] = (short)x;
	__syncthreads();
	return (long long)d3[(threadIdx.x + 1) % 3] + s1[0];
}
__device__ long long (*pick[2])(long long) = {big, small};
