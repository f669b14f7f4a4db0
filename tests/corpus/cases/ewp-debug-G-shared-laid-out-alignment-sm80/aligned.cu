__global__ void k1(float *o)
{
	__shared__ alignas(128) float buf[512];
	__shared__ unsigned long long bar;
	__shared__ short s2[3];
	buf[threadIdx.x] = o[threadIdx.x];
	if (threadIdx.x == 0) { bar = 1; s2[0] = 2; s2[2] = 3; }
	__syncthreads();
	o[threadIdx.x] = buf[threadIdx.x ^ 1] + bar + s2[threadIdx.x & 1];
}
