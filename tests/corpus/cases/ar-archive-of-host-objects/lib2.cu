// not referenced by anything
__device__ double lib2_sum;

__device__ __noinline__ double lib2_add(double x) { return atomicAdd(&lib2_sum, x); }

__global__ void lib2_kernel(const double *in) { lib2_add(in[threadIdx.x]); }
