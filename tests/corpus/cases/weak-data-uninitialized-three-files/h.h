// weak-data-uninitialized-three-files: weak variables without initializer, defined wherever used
template <typename T> __device__ T tvar;
__device__ inline int ivar;
__device__ int use_b();
__device__ int use_c();
