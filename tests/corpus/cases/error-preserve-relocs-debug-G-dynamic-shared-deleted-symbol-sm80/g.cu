// nvcc -G: .debug_info names the extern __shared__ array; two kernels share count_twice's static array.
extern __shared__ int scratch_pool[];
__device__ __noinline__ int count_twice(int v)
{
	__shared__ short tally[7];
	tally[threadIdx.x % 7] = v;
	__syncthreads();
	return tally[0] * 2;
}
__global__ void k_pool(int *out) { out[threadIdx.x] = scratch_pool[threadIdx.x]; }
__global__ void k_first(int *out) { out[threadIdx.x] = count_twice(out[0]); }
__global__ void k_second(int *out) { out[threadIdx.x] = count_twice(out[1]); }
