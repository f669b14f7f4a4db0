__global__ void fill(float *p, float v) { p[threadIdx.x] = v; }
