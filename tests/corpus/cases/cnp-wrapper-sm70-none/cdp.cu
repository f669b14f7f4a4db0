// Kernels calling into the device runtime in different ways, and kernels
// that do not: only those reaching a cnp* syscall need the CNP wrapper.
#include <cstdio>
__global__ void child(int *o, int v) { o[threadIdx.x] = v; }
__device__ __noinline__ void launch_from_func(int *o) { child<<<1, 4>>>(o, 9); }
__global__ void k_launch(int *o) { child<<<1, 32>>>(o, 7); }
__global__ void k_via_func(int *o) { launch_from_func(o); }
__global__ void k_sync(int *o) { cudaDeviceSynchronize(); o[0] = 1; }
__global__ void k_getdev(int *o) { int d; cudaGetDevice(&d); o[0] = d; }
__global__ void k_lasterr(int *o) { o[0] = cudaGetLastError(); }
__global__ void k_stream(int *o) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  child<<<1, 1, 0, s>>>(o, 3);
  cudaStreamDestroy(s);
}
__global__ void k_occupancy(int *o) { int n; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, child, 32, 0); o[0] = n; }
__global__ void k_malloc(int *o) { int *p = (int *)malloc(8); o[0] = p != 0; free(p); }
__global__ void k_printf(int *o) { printf("%d\n", o[0]); }
__global__ void k_plain(int *o) { o[0] = 1; }
