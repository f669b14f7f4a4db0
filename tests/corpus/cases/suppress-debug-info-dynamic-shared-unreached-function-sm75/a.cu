// a.cu: a file-scope shared array two kernels reach through helper; kv also reads the extern __shared__ array
extern __shared__ float dyn[];
__device__ __shared__ int file_shared[16];
__device__ __noinline__ float helper(int i)
{
	file_shared[i % 16] = i;
	return file_shared[0];
}
__global__ void ku(float *o) { o[threadIdx.x] = helper(threadIdx.x); }
__global__ void kv(float *o) { o[threadIdx.x] = helper(threadIdx.x) + dyn[threadIdx.x]; }
