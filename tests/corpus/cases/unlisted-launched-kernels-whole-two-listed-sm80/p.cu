// Kernels launched from the device only: the host code (host.cu) launches
// root alone. child launches tail itself.
__global__ void tail(float *p) { p[0] = -p[0]; }
__global__ void child(float *p, int n)
{
	p[threadIdx.x] += n;
	if (threadIdx.x == 0)
		tail<<<1, 1>>>(p);
}
__global__ void child2(float *p) { p[1] = 2; }
__global__ void root(float *p, int n)
{
	if (threadIdx.x == 0) {
		child<<<1, 32>>>(p, n);
		child2<<<1, 1>>>(p);
	}
}
