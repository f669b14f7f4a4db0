// A small device function and a variable: under -dlto, libnvvm inlines
// scale into its caller in kern.cu, so the output has no scale at all.
__device__ float scale(float x, float s) { return x * s + 1.0f; }
__device__ int counter;
