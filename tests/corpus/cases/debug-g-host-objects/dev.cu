// device code compiled with nvcc -dc -G: what main.cu calls, an uncalled function, a kernel no host code launches
__device__ int dev_step(int x) { return x + 1; }
__device__ __noinline__ int dev_unused(int x) { return x * 5; }
__global__ void k_dev(int *p) { p[0] = dev_step(3); }
