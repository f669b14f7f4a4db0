#ifdef __CUDA_ARCH_FEAT_SM90_ALL
__device__ float pstep(float x) { return 3.f * x; }
#else
__device__ float pstep(float x) { return x + x; }
#endif
__global__ void ptx_step(float *p) { p[threadIdx.x] = pstep(p[threadIdx.x]); }
void run_ptx(float *p) { ptx_step<<<1, 32>>>(p); }
