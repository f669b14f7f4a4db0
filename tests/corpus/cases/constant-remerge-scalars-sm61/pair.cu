__constant__ int int_pair[2] = {7, 7};
__global__ void use_int_pair(int *p) { p[threadIdx.x] += int_pair[threadIdx.x & 1]; }
