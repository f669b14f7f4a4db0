__constant__ int seven_b = 7;
__global__ void use_seven_b(int *p) { p[threadIdx.x] /= seven_b; }
