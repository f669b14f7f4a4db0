// managed-variables, file m2: the __managed__ variables of m1.cu used through extern declarations
extern __managed__ int counter[4];
extern __managed__ float scale;
__device__ __noinline__ float twice(float x) { counter[0] += 1; return 2.0f * x * scale; }
__global__ void kother(int *o) { o[threadIdx.x] = counter[threadIdx.x & 3]; }
