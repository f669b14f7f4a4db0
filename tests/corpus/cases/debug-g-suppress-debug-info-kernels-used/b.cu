// file b: functions called from a, one calling back into a, a dead function, and a kernel
__device__ int b_var = 3;
extern __device__ int a_helper(int);
__device__ __noinline__ int b_dead(int x) { return x * 3; }
__device__ int b_scale(int x) { return x - b_var; }
__device__ int b_offset(int x) { return a_helper(x) + 2; }
__global__ void k_b(float *q) { q[threadIdx.x] = b_scale(threadIdx.x) * 2.0f; }
