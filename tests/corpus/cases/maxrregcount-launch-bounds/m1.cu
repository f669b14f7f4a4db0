// maxrregcount-launch-bounds: a copy of the grid-constant-launch-bounds-sm70 / managed-variables source, compiled with -maxrregcount=32
__managed__ int counter[4];
__managed__ float scale = 2.5f;
extern __device__ float twice(float);
__global__ void kmanaged(float *o) { atomicAdd(&counter[threadIdx.x & 3], 1); o[threadIdx.x] = twice(o[threadIdx.x]) * scale; }
