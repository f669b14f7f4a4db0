// PTX only (compute_80): compiled for sm_86 by the linker
extern __device__ int total;                      // defined in sass.cu
extern __device__ int from_newer(int x);          // defined in newer.cu

__device__ __noinline__ int from_ptx(int x) { return from_newer(x) * 5 + total; }

__global__ void ptx_kernel(int *out) { out[threadIdx.x] = from_ptx(threadIdx.x); }
