extern __device__ int missing_var;
extern __device__ int missing_live;
__device__ __noinline__ int dead(int x) { return missing_var + x; }
__global__ void k(int *o) { o[0] = missing_live; }
