// weak __device__ pointers initialized with addresses (relocations of .nv.global.init), or without initializer where ZERO is defined
#ifdef ZERO
inline __device__ float *wp;
inline __device__ void *wf;
#else
extern __device__ float g[4];
__device__ float hf(float x);
inline __device__ float *wp = g + 1;
inline __device__ void *wf = (void *)&hf;
#endif
