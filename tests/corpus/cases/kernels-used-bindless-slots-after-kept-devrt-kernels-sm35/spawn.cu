// a kernel that launches another from the device, which brings in libcudadevrt and its memcpy_3d_device kernels
__global__ void sample(float *o, int n);
__global__ void spawn(float *o, int n)
{
	if (threadIdx.x == 0) sample<<<(n + 63) / 64, 64>>>(o, n);
}
