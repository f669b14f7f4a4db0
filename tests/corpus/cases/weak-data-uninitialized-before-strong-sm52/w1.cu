// weak-data-uninitialized-before-strong-sm52: the first weak copy of x
inline __device__ int x;
__global__ void k1(int *o) { x = 1; o[0] = x; }
