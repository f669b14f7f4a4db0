__constant__ int zero_a;
__global__ void use_zero_a(int *p) { p[threadIdx.x] += zero_a; }
