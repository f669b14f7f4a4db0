// another whole-program member, with a __device__ variable and a device function of its own
__device__ int g_count;
__device__ int twice(int v) { return 2 * v; }
__global__ void lib_count(const int *a, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) atomicAdd(&g_count, twice(a[i]));
}
void launch_count(const int *a, int n) { lib_count<<<(n + 255) / 256, 256>>>(a, n); }
