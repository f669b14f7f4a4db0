// weak-data-uninitialized-host-objects-sm90: a counter template and an inline flag
template <int N> __device__ unsigned long long counter;
__device__ inline int ready;
