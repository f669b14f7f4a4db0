// Host object for the Bazel end-to-end test: a kernel that calls into b.cu,
// launched from host code.
extern __device__ int scale(int x);

__global__ void k_scale(int *p) { p[threadIdx.x] = scale(p[threadIdx.x]); }

void launch_scale(int *p) { k_scale<<<1, 32>>>(p); }
