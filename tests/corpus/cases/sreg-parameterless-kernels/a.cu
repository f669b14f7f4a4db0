// sreg-parameterless-kernels: an empty kernel, one with parameters, one without that writes a variable
__device__ int flag;
__device__ int bump(int v);

__global__ void empty_kernel() {}

__global__ void with_params(int *out, int n) { out[threadIdx.x] = n + flag; }

__global__ void no_params_writes() { flag = bump(threadIdx.x); }
