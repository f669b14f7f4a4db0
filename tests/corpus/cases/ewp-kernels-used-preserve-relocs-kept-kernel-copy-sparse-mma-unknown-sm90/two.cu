// Two kernels; only k2 calls the __noinline__ function, which nvcc -c
// -ewp's ptxas copies into it ($kernel$function).
static __device__ __noinline__ float mix(float a, float b) { return a * 0.5f + b; }
__global__ void k1(float *out) { out[threadIdx.x] = out[0] + 1.f; }
__global__ void k2(float *out) { out[threadIdx.x] = mix(out[threadIdx.x + 1], 1.f); }
