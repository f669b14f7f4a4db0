// a library member compiled without -rdc: whole-program kernels the library launches from the host
__global__ void lib_axpy(float a, const float *x, float *y, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) y[i] += a * x[i];
}
void launch_axpy(float a, const float *x, float *y, int n) { lib_axpy<<<(n + 255) / 256, 256>>>(a, x, y, n); }
