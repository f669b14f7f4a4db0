// Built with CUDA 12.4 for sm_80.
__global__ void b(float *p) { p[0] += 1.0f; }
