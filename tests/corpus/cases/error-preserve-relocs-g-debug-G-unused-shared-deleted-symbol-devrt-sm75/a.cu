// a.cu: a shared array no code uses, and one a device function two kernels call uses
__shared__ float never_used[64];
__device__ __shared__ int file_shared[16];
__device__ __noinline__ float helper(int i)
{
	file_shared[i % 16] = i;
	return file_shared[0];
}
__global__ void ku(float *o) { o[threadIdx.x] = helper(threadIdx.x); }
__global__ void kv(float *o) { o[threadIdx.x] = helper(threadIdx.x); }
