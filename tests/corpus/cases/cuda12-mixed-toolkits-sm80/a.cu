extern __device__ int scale_b(int x);
__device__ int total_a;
__device__ __noinline__ int add_a(int x, int y) { return x + y + total_a; }
__global__ void kernel_a(int *p) { p[threadIdx.x] = scale_b(p[threadIdx.x]); }
