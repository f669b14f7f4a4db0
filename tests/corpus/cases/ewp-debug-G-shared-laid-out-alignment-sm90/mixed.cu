__global__ void k2(double *o)
{
	__shared__ alignas(64) double a[8];
	__shared__ char c[5];
	__shared__ alignas(256) int b[4];
	a[threadIdx.x & 7] = o[threadIdx.x];
	if (threadIdx.x < 5) c[threadIdx.x] = threadIdx.x;
	if (threadIdx.x < 4) b[threadIdx.x] = threadIdx.x;
	__syncthreads();
	o[threadIdx.x] = a[(threadIdx.x + 1) & 7] + c[threadIdx.x % 5] + b[threadIdx.x & 3];
}
