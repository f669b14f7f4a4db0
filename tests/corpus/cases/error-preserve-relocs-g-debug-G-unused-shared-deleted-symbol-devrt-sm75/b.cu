// b.cu: a device launch, so the link takes libcudadevrt
__global__ void child(float *o) { o[threadIdx.x] = 1; }
__global__ void parent(float *o)
{
	if (threadIdx.x == 0)
		child<<<1, 1>>>(o);
}
