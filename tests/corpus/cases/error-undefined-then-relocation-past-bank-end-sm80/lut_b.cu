__constant__ float lut_b[4] = {1.f, 2.f, 3.f, 4.f};
__global__ void read_b(float* p) { p[threadIdx.x] = lut_b[threadIdx.x & 3]; }
