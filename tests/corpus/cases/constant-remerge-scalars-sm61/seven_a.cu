__constant__ int seven_a = 7;
__global__ void use_seven_a(int *p) { p[threadIdx.x] *= seven_a; }
