__constant__ float s2_gain[8];
__constant__ double s2_offset;
__global__ void stage2(float *p) { p[threadIdx.x] += s2_gain[threadIdx.x & 7] - (float)s2_offset; }
