extern __device__ int g(int);
extern __device__ int h(int);

__global__ void both(int *out)
{
	out[threadIdx.x] = g(out[threadIdx.x]) + h(threadIdx.x);
}
