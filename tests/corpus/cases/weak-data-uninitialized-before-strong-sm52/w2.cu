// weak-data-uninitialized-before-strong-sm52: a second weak copy of x, met after the first
inline __device__ int x;
__global__ void k2(int *o) { x = 2; o[1] = x; }
