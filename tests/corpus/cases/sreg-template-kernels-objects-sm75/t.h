// sreg-template-kernels-objects-sm75: a kernel template without parameters
extern __device__ int sink;
template <int N> __global__ void add_n() { atomicAdd(&sink, N); }
