// Inlined into both kernels of kern.cu by libnvvm: no clamp01 in the output.
__device__ float clamp01(float x) { return fminf(fmaxf(x, 0.0f), 1.0f); }
