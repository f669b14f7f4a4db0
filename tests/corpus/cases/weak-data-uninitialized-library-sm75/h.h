// weak-data-uninitialized-library-sm75: a scratch buffer template
template <typename T> __device__ T scratch[8];
__device__ int lib_sum();
__device__ int lib_max();
