// Relocatable device code linked next to the -ewp object.
__device__ int counter;
__global__ void count(int *p) { p[0] = atomicAdd(&counter, 1); }
