// archive member nothing refers to: nvlink links it all the same
__device__ int unused_var = 3;
__constant__ int unused_table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

__device__ __noinline__ int unused_fn(int x) { return x * unused_var + unused_table[x & 7]; }

__global__ void unused_kernel(int *p) { p[threadIdx.x] = unused_fn(p[threadIdx.x]); }
