// Built with CUDA 11.8: texture and surface references that no code reads.
texture<float, 1, cudaReadModeElementType> texUnread;
texture<float4, 2, cudaReadModeElementType> texUnread2;
surface<void, 1> surfUnread;

__device__ int counter;

__global__ void bump(int n) { if (threadIdx.x < n) atomicAdd(&counter, 1); }
