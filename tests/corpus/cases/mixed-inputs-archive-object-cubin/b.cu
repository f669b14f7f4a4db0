// compiled to the host object b.o (nvcc -dc)
extern __device__ int c_step(int x);          // libc.a
__constant__ int b_coeff[4] = {3, 5, 7, 11};

__device__ __noinline__ int b_step(int x) { return c_step(x) * b_coeff[x & 3]; }

__global__ void b_kernel(int *out) { out[threadIdx.x] = b_step(out[threadIdx.x]); }
