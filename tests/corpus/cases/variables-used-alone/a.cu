__device__ int used_by_kernel = 1;
__device__ int unused_var = 2;
__device__ int unused_bss;
__constant__ int cused = 3;
__constant__ int cunused = 4;
__device__ int used_by_dead_fn = 5;
__device__ int used_by_helper;
__device__ int *ptr_to_unused_target = &unused_bss;
__device__ __noinline__ int dead_fn() { return used_by_dead_fn; }
__device__ __noinline__ int helper() { return used_by_helper; }
__global__ void k_main(int *o) { o[0] = used_by_kernel + cused + helper(); }
__global__ void k_other(int *o) { o[0] = *ptr_to_unused_target; }
