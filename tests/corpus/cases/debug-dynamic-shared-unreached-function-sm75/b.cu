// b.cu: the same extern __shared__ array in a kernel and in a device function nothing calls
extern __shared__ float dyn[];
__device__ __noinline__ float helper2(int i)
{
	__shared__ float t[16];
	t[i % 16] = i;
	return t[0];
}
__global__ void kb(float *o) { o[threadIdx.x] = dyn[threadIdx.x] + helper2(threadIdx.x); }
__device__ __noinline__ float unused(int i) { return dyn[i] * 2; }
