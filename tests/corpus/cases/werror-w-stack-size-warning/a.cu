__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

extern __device__ int is_odd(int n);
__device__ __noinline__ int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }

__global__ void k_fib(int *out) { out[threadIdx.x] = fib(threadIdx.x); }

__global__ void k_parity(int *out) { out[threadIdx.x] = is_even(threadIdx.x); }

__global__ void k_no_recursion(int *out) { out[threadIdx.x] = 1; }
