__constant__ float factor[2] = {1.5f, 0.25f};
__device__ float gain(float x) { return x * factor[0] + factor[1]; }
__global__ void gain_all(float *v) { v[threadIdx.x] = gain(v[threadIdx.x]) + 1.f; }
