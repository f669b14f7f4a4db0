// b.cu: a device function nothing calls reads the extern __shared__ array, and one only kw calls
extern __shared__ float dyn[];
__device__ __noinline__ float unused(int i) { return dyn[i] * 2; }
__device__ __noinline__ float twice(int i) { return dyn[i] + dyn[i + 1]; }
__global__ void kw(float *o) { o[threadIdx.x] = twice(threadIdx.x); }
