// weak-data-uninitialized-before-strong-sm52: the strong definition of x, with an array after it
__device__ int x;
__device__ short after_x[3];
__global__ void ks(int *o) { x = 3; after_x[1] = 4; o[2] = x + after_x[0]; }
