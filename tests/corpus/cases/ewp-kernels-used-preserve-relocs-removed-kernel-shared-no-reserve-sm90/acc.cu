__global__ void kc(float *out)
{
	__shared__ double acc[32];
	acc[threadIdx.x & 31] = out[threadIdx.x];
	__syncthreads();
	out[threadIdx.x] = acc[0];
}
