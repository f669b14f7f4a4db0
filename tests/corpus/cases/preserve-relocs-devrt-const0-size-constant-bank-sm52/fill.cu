// the launched kernel, reading the program's __constant__ table
extern __constant__ float scale[100];
__global__ void fill(float *p, int n, float v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) p[i] = v * scale[i % 100];
}
