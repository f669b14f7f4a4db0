// Calls f3 and f1 directly.
__device__ int f1(int);
__device__ int f3(int);
__global__ void kw(int *o) { o[0] = f3(o[1]) + f1(o[2]); }
