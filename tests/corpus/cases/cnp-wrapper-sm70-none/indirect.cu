// Reaches cudaDeviceSynchronize only through a function pointer, and the
// cnp* syscalls directly (no device runtime).
typedef cudaError_t (*syncfp)();
__device__ syncfp sp = cudaDeviceSynchronize;
__global__ void k_indirect(int *o) { o[0] = sp(); }
extern "C" __device__ int cnpGetDevice(int *);
__device__ __noinline__ int direct_cnp(int *o) { return cnpGetDevice(o); }
__global__ void k_direct_cnp(int *o) { o[0] = direct_cnp(o + 1); }
