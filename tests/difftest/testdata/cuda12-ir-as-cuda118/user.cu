// Built with CUDA 11.8: nvcc -arch=sm_80 -dc user.cu -o user.o (for TestCUDA12LTOAsCUDA118).
extern __device__ float scale(float x, float s);
__global__ void u(float *p) { p[0] = scale(p[0], 2.0f); }
