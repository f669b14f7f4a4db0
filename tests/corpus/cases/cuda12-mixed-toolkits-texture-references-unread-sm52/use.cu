// Built with CUDA 12.x.
extern __device__ int counter;

__global__ void readc(int* out) { *out = counter; }
