__constant__ long long table1[5000] = {1, 2, 3};
__global__ void kc1(long long *out)
{
	__shared__ long long s1[8500];
	s1[threadIdx.x % 8500] = table1[threadIdx.x];
	__syncthreads();
	out[threadIdx.x] = s1[(threadIdx.x + 1) % 8500];
}
