// a.cu: a kernel whose callee has a shared array, and a kernel using the extern __shared__ array
extern __shared__ float dyn[];
__device__ __noinline__ float helper(int i)
{
	__shared__ float s[32];
	s[i % 32] = i;
	__syncthreads();
	return s[(i + 1) % 32] + dyn[i];
}
__global__ void ka(float *o) { o[threadIdx.x] = helper(threadIdx.x); }
