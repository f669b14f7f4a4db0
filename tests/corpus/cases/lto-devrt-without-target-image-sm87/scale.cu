// A Jetson (sm_87) program built with -dlto: a helper and a table in one file
__device__ float bias[4] = {0.5f, 1.0f, 1.5f, 2.0f};
__device__ __noinline__ float scale(float x, int k) { return x * (float)(k + 1) + bias[k & 3]; }
