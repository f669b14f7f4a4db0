// compiled with nvcc -c: scale is whole-program device code, removed as unused
__device__ float scale(float x) { return 2.0f * x + 1.0f; }
