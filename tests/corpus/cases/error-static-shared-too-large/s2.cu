// s2.cu: part of the error-static-shared-too-large case
__device__ __noinline__ float g2(int i) { __shared__ float b[8192]; b[i] = i; __syncthreads(); return b[i ^ 3]; }
