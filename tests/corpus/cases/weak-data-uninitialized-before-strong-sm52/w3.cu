// weak-data-uninitialized-before-strong-sm52: a weak copy met after the strong definition
inline __device__ int x;
__global__ void k3(int *o) { x = 5; o[3] = x; }
