// the library's member with relocatable device code (nvcc -dc)
__device__ float g_factor = 2.0f;
__device__ float lib_scale(float x) { return x * g_factor; }
