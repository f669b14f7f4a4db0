extern __device__ float gb[4];
#ifdef ZERO
inline __device__ float* wp1;
inline __device__ float* wp2;
#else
inline __device__ float* wp1 = gb + P1;
inline __device__ float* wp2 = gb + P2;
#endif
