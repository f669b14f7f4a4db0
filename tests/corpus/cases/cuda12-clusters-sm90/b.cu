__device__ __noinline__ float reduce_pair(float a, float b) { return a + b; }
__global__ void __cluster_dims__(4, 2, 1) k_cluster8(float *out) { out[threadIdx.x] = reduce_pair(out[threadIdx.x], 8.0f); }
