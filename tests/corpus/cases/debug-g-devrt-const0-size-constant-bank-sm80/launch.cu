// a kernel that launches another from the device: libcudadevrt's launch helpers join the link
__global__ void fill(float *p, int n, float v);
__global__ void launcher(float *p, int n)
{
	if (threadIdx.x == 0) {
		fill<<<(n + 127) / 128, 128>>>(p, n, 2.0f);
		if (cudaGetLastError() != cudaSuccess) p[0] = -1.0f;
	}
}
