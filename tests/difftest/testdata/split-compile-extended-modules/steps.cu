// Six kernels, each calling its own step function and the next one's.
__device__ float step0(float x);
__device__ float step1(float x);
__device__ float step2(float x);
__device__ float step3(float x);
__device__ float step4(float x);
__device__ float step5(float x);

__device__ __noinline__ float step0(float x) { for (int j = 0; j < 2; j++) x = x * 1.5f + sinf(x); return x; }
__device__ __noinline__ float step1(float x) { for (int j = 0; j < 3; j++) x = x * 2.5f + cosf(x); return x; }
__device__ __noinline__ float step2(float x) { for (int j = 0; j < 4; j++) x = x * 3.5f - sinf(x); return x; }
__device__ __noinline__ float step3(float x) { for (int j = 0; j < 5; j++) x = x * 4.5f + expf(-x); return x; }
__device__ __noinline__ float step4(float x) { for (int j = 0; j < 6; j++) x = x * 5.5f + logf(1.0f + x * x); return x; }
__device__ __noinline__ float step5(float x) { for (int j = 0; j < 7; j++) x = x * 6.5f + sqrtf(1.0f + x * x); return x; }

__global__ void run0(float *p) { p[threadIdx.x] = step0(p[threadIdx.x]) + step1(p[threadIdx.x + 1]); }
__global__ void run1(float *p) { p[threadIdx.x] = step1(p[threadIdx.x]) + step2(p[threadIdx.x + 1]); }
__global__ void run2(float *p) { p[threadIdx.x] = step2(p[threadIdx.x]) + step3(p[threadIdx.x + 1]); }
__global__ void run3(float *p) { p[threadIdx.x] = step3(p[threadIdx.x]) + step4(p[threadIdx.x + 1]); }
__global__ void run4(float *p) { p[threadIdx.x] = step4(p[threadIdx.x]) + step5(p[threadIdx.x + 1]); }
__global__ void run5(float *p) { p[threadIdx.x] = step5(p[threadIdx.x]) + step0(p[threadIdx.x + 1]); }
