// device code built for other architectures only
__device__ int b_counter;
__device__ __noinline__ int b_helper(int x) { return x + b_counter; }
__global__ void k_other(int *out) { out[0] = b_helper(out[1]); }
