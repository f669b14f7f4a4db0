// texture and surface references declared, never read; two kernels
texture<float, 1, cudaReadModeElementType> t_one;
surface<void, 2> s_two;
texture<int, 1, cudaReadModeElementType> t_three;
__global__ void k1(float *out) { out[threadIdx.x] = 1; }
__global__ void k2(float *out, int n) { out[threadIdx.x] = n; }
