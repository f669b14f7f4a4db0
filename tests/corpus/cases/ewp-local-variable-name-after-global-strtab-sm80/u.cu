extern __constant__ float cTable[16];
__global__ void kMain(float *p) { p[threadIdx.x] = cTable[threadIdx.x & 15]; }
