// sreg-parameterless-kernels: a device function the other file calls, and two more kernels without parameters
extern __device__ int flag;

__device__ __noinline__ int bump(int v) { return v * 3 + 1; }

__global__ void no_params_reads() { if (flag > 2) flag = bump(flag); }

__global__ void another_empty() {}
