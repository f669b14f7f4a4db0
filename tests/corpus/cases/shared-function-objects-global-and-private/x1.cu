// file 1: two device functions with function-level shared arrays
__device__ __noinline__ int fx1(int v) { __shared__ int X1[4]; X1[threadIdx.x % 4] = v; __syncthreads(); return X1[0]; }
__device__ __noinline__ int fz1(int v) { __shared__ int Z1[2]; Z1[threadIdx.x % 2] = v; __syncthreads(); return Z1[0]; }
