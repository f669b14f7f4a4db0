__device__ int fa(int x);
__device__ int fb(int x);
__device__ int fc(int x);

__global__ void k(int *out)
{
	out[threadIdx.x] = fa(threadIdx.x) + fb(out[0]) + fc(out[1]);
}
