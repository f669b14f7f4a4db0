__device__ float scale(float x) { return 2.f * x + 1.f; }
