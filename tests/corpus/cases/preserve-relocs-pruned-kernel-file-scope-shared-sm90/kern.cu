// Two kernels share a file-scope __shared__ array through an inlined
// device function; the second also writes one of its own (private to it);
// a third array no code touches.
__shared__ int d_unused[16];
__shared__ float d_both[32];
__shared__ char d_one[8];
__device__ void share(float *p) { d_both[threadIdx.x] = *p; __syncthreads(); *p = d_both[31 - threadIdx.x]; }
__global__ void k1(float *p) { share(p); }
__global__ void k2(float *p) { share(p + 1); d_one[threadIdx.x] = 1; __syncthreads(); p[2] = d_one[3]; }
