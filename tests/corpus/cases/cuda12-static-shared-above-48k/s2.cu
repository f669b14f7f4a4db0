// s2.cu: part of the cuda12-static-shared-above-48k case
__device__ __noinline__ float g2(int i) { __shared__ float b[8192]; b[i] = i; __syncthreads(); return b[i ^ 3]; }
