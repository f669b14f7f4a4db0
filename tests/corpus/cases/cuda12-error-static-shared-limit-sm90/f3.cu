// f3.cu: part of the cuda12-error-static-shared-limit-sm90 case
__device__ __noinline__ float f3(int i) { __shared__ float b[12288]; b[i] = i; __syncthreads(); return b[i ^ 3]; }
