// a cubin whose file name contains "cudadevrt": a kernel and a device
// variable that nothing in main.cu needs
__device__ int extra_counter;
__global__ void extra_kernel(int *p) { atomicAdd(&extra_counter, p[0]); }
