// Whole-program code (nvcc -c -ewp -G) with a file-scope __shared__ array
// two kernels use, one nothing uses, and extern __shared__ memory.
__shared__ int w_unused[9];
__shared__ int w_used[4];
__global__ void kw(int *p) { extern __shared__ float d[]; d[threadIdx.x] = p[0]; w_used[threadIdx.x & 3] = 1; __syncthreads(); p[1] = d[2] + w_used[1]; }
__global__ void kv(int *p) { w_used[threadIdx.x & 3] = 2; __syncthreads(); p[1] = w_used[0]; }
