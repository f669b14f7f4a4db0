#include "tab.h"
__global__ void child(float *p) { p[threadIdx.x] *= kTab[threadIdx.x & 3]; }
__global__ void parent(float *p) { if (threadIdx.x == 0) child<<<1, 32>>>(p); }
