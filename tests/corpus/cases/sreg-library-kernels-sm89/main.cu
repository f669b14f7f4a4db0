// sreg-library-kernels-sm89: kernels with and without parameters calling the library's device function
__device__ int lib_step(int v);
__device__ int state;
__global__ void main_tick() { state = lib_step(state); }
__global__ void main_set(int v) { state = v; }
