template <typename T> __device__ __noinline__ T twice(T x) { return x + x; }
static __device__ __noinline__ int local_fn(int x) { return x * 5; }
__device__ __noinline__ int ext1(int x) { return twice(x) + local_fn(x); }
__device__ __noinline__ int ext2(int x) { return x; }
__global__ void k_b(int *o) { o[0] = ext1(o[1]) + twice(1.5f); }
