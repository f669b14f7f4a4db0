extern __device__ int is_even(int n);
__device__ __noinline__ int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
