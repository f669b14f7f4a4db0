extern __device__ int add_a(int x, int y);
extern __device__ int total_a;
__device__ __noinline__ int scale_b(int x) { return 3 * x + total_a; }
__global__ void kernel_b(int *p) { p[threadIdx.x] = add_a(p[threadIdx.x], 7); }
