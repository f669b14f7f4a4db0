extern __device__ int scale(int);
extern __device__ int offset;

__global__ void apply(int *p)
{
	p[threadIdx.x] = scale(p[threadIdx.x]) + offset;
}
