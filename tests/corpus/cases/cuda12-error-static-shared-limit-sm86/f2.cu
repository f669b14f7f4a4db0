// f2.cu: part of the cuda12-error-static-shared-limit-sm86 case
__device__ __noinline__ float f2(int i) { __shared__ float b[12288]; b[i] = i; __syncthreads(); return b[i ^ 3]; }
