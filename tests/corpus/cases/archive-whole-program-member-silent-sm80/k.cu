// the program: a kernel calling a device function the library defines
__device__ float lib_scale(float x);
__global__ void prog(float *a, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) a[i] = lib_scale(a[i]);
}
