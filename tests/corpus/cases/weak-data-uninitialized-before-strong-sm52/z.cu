// weak-data-uninitialized-before-strong-sm52: data after every copy
__device__ double z;
__global__ void kz(double *o) { z = 2.5; o[0] = z; }
