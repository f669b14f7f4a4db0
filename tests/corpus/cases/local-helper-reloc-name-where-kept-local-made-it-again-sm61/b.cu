__device__ float hubb(float* p) { return p[3] / p[4]; }
__global__ void kb(float* p) { p[0] = p[5] + 1.0f; }
