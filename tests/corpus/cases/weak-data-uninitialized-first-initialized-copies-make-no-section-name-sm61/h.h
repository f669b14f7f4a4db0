// weak __device__ data, initialized, or without initializer (zero, in .nv.global) where ZERO is defined
#ifdef ZERO
inline __device__ float wv[4];
template <typename T> __device__ T wt[4];
#else
inline __device__ float wv[4] = {1.5f, 2.5f};
template <typename T> __device__ T wt[4] = {T(1), T(3)};
#endif
