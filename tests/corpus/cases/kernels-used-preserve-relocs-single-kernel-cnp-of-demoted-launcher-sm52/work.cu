// the kernel -kernels-used keeps: it reads blockIdx and launches nothing
__global__ void work(float *o, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) o[i] = o[i] * 2.0f + 1.0f;
}
