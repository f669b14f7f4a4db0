__device__ float lib1_bias = 0.5f;

__device__ __noinline__ float lib1_scale(float x) { return 2.0f * x + lib1_bias; }
