extern __device__ int used_by_kernel;
__device__ int b_unused = 7;
static __device__ int b_static_unused = 8;
__device__ int *b_keeps_static = &b_static_unused;
static __device__ int b_static_used = 9;
__shared__ int b_shared_unused;
__global__ void k_b(int *o) { o[0] = used_by_kernel + b_static_used; }
