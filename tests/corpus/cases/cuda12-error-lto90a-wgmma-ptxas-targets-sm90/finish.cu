__device__ float finish(float x) { return x * 0.25f; }
