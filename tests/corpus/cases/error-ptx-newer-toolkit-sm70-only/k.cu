// Built with CUDA 12.4 for sm_70 only (SASS and compute_70 PTX, PTX ISA 8.4).
__device__ float scaled(float x) { return 3.0f * x; }
__global__ void k(float *p) { p[threadIdx.x] = scaled(p[threadIdx.x]); }
