// a relocatable fatbinary (nvcc -fatbin -rdc=true) holding only compute_80 PTX, calling into counter.ptx
extern "C" __device__ unsigned bump(unsigned x);  // defined in counter.ptx
extern "C" __device__ unsigned ticks;

__global__ void user_kernel(unsigned *out) { out[threadIdx.x] = bump(2 * threadIdx.x) + ticks; }
