__global__ void elsewhere(int *p) { p[threadIdx.x] = 7; }
