__global__ void legacy(int *p) { p[threadIdx.x] *= 3; }
