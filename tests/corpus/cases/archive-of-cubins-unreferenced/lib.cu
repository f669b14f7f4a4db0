// the archived cubin: self-contained, nothing in main.cu refers to it
__device__ int lib_counter;

__device__ __noinline__ int lib_helper(int x) { return x + atomicAdd(&lib_counter, 1); }

__global__ void lib_kernel(int *out) { out[threadIdx.x] = lib_helper(threadIdx.x); }
__global__ void lib_kernel2(float *out) { out[threadIdx.x] *= 2.0f; }
