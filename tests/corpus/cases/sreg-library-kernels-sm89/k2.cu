// sreg-library-kernels-sm89: an empty library kernel and one reading a clock
extern __device__ int state;
__global__ void lib_noop() {}
__global__ void lib_stamp() { state = (int)clock(); }
