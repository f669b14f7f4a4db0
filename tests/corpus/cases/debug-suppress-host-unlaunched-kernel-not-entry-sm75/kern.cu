__device__ double heavy(const double *p, int n);
__global__ void launched(float *out)
{
	out[threadIdx.x] = threadIdx.x * 2.f;
}
__global__ void unlaunched(const double *in, double *out)
{
	out[threadIdx.x] = heavy(in, threadIdx.x);
}
