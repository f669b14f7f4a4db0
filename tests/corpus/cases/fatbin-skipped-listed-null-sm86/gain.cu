__constant__ float factor[2] = {1.5f, 0.25f};
__device__ float gain(float x) { return x * factor[0] + factor[1]; }
