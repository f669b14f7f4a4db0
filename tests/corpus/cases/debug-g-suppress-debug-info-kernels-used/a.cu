// file a: kernels calling functions of file b (first new undefined functions: nvlink's placeholder symbol), a dead function, a variable used from b
__device__ int a_var = 5;
extern __device__ int b_var;
extern __device__ int b_scale(int);
extern __device__ int b_offset(int);
__device__ __noinline__ int a_helper(int x) { return x * a_var + b_var; }
__device__ __noinline__ int a_dead(int x) { return x + 7; }
__global__ void k_a(int *p, int n) { p[n] = a_helper(p[0]) + b_scale(n); }
__global__ void k_a2(int *p, float f, int n) { p[n] = b_offset(n) + (int)f; }
