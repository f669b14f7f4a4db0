extern "C" __device__ int twice(int x);            // defined in broken.ptx

__global__ void a_kernel(int *out) { out[threadIdx.x] = twice(threadIdx.x); }
