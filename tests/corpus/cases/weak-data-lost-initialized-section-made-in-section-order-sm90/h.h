#ifdef ZERO
inline __device__ float wv[4];
#else
inline __device__ float wv[4] = {1.5f, 2.5f};
#endif
