__constant__ long long table2[5000] = {4, 5, 6};
__global__ void kc2(long long *out)
{
	__shared__ long long s2[8600];
	s2[threadIdx.x % 8600] = table2[threadIdx.x];
	__syncthreads();
	out[threadIdx.x] = s2[(threadIdx.x + 1) % 8600];
}
