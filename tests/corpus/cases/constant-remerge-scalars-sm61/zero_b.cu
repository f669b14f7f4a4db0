__constant__ int zero_b;
__global__ void use_zero_b(int *p) { p[threadIdx.x] -= zero_b; }
