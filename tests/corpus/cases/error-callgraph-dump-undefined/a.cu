extern __device__ int missing_called(int);
extern __device__ int missing_dead_only(int);
__device__ __noinline__ int dead(int x) { return missing_dead_only(x); }
__global__ void k(int *o) { o[0] = missing_called(o[1]); }
