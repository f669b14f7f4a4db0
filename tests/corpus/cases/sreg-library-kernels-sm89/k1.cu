// sreg-library-kernels-sm89: library kernel without parameters and a device function
extern __device__ int state;
__device__ __noinline__ int lib_step(int v) { return v + 7; }
__global__ void lib_reset() { state = 0; }
