// calls a device function defined in b.cu, which the case compiles with
// nvcc -c (no -rdc): its definition is whole-program code, not linked
__device__ float scale(float x);
__global__ void apply(float *p) { p[threadIdx.x] = scale(p[threadIdx.x]); }
void launch(float *p) { apply<<<1, 32>>>(p); }
