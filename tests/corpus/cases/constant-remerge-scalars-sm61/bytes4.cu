__constant__ unsigned char four_bytes[4] = {7, 0, 0, 0};
__global__ void use_four_bytes(int *p) { p[threadIdx.x] += four_bytes[threadIdx.x & 3]; }
