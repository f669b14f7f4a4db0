__device__ float g_out[256];
__global__ void ka(const float *in)
{
	__shared__ float tile[128];
	tile[threadIdx.x] = in[threadIdx.x];
	__syncthreads();
	g_out[threadIdx.x] = tile[127 - threadIdx.x];
}
__global__ void kb(float *out)
{
	__shared__ int cnt[64];
	cnt[threadIdx.x & 63] = threadIdx.x;
	__syncthreads();
	out[threadIdx.x] = cnt[(threadIdx.x + 1) & 63];
}
