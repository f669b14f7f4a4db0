template <int N> __global__ void tk(long long *out)
{
	__shared__ long long tks[8200 + N];
	tks[threadIdx.x % (8200 + N)] = N;
	__syncthreads();
	out[threadIdx.x] = tks[(threadIdx.x + 1) % (8200 + N)];
}
