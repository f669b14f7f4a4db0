// a.cu: a kernel launching another from the device, both using the extern __shared__ array
extern __shared__ float dyn[];
__device__ __noinline__ float helper(int i)
{
	__shared__ float s[32];
	s[i % 32] = i;
	__syncthreads();
	return s[(i + 1) % 32] + dyn[i];
}
__global__ void child(float *o) { o[threadIdx.x] = dyn[threadIdx.x]; }
__global__ void parent(float *o)
{
	if (threadIdx.x == 0)
		child<<<1, 32, 128>>>(o);
	o[threadIdx.x] += helper(threadIdx.x);
}
