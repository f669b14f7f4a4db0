// Function-level arrays of different sizes reached by overlapping sets of
// kernels. nvlink places them largest first, each at the lowest offset where
// it overlaps nothing placed before that shares a kernel with it; a hole is
// used only when it is strictly larger than the array (h, 16 bytes, does not
// go into the 16-byte hole after d).
extern __device__ int fa(int), fd(int), ff(int), fg(int), fh(int), fb(int);

__global__ void k1(int *out) { out[threadIdx.x] = fa(threadIdx.x) + ff(threadIdx.x) + fb(threadIdx.x); }
__global__ void k2(int *out) { out[threadIdx.x] = fa(threadIdx.x); }
__global__ void k3(int *out) { out[threadIdx.x] = fd(threadIdx.x) + ff(threadIdx.x) + fg(threadIdx.x) + fh(threadIdx.x); }
__global__ void k4(int *out) { out[threadIdx.x] = fd(threadIdx.x); }
__global__ void k5(int *out) { out[threadIdx.x] = fg(threadIdx.x) + fb(threadIdx.x); }
__global__ void k6(int *out) { out[threadIdx.x] = fh(threadIdx.x); }
