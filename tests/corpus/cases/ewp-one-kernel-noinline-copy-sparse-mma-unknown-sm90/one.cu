// One kernel calling a __noinline__ function: nvcc -c -ewp's ptxas copies
// the function into the kernel ($kernel$function), with no .nv.info of its own.
static __device__ __noinline__ float mix(float a, float b) { return a * 0.5f + b; }
__global__ void k1(float *out) { out[threadIdx.x] = mix(out[threadIdx.x], 2.f); }
