__device__ float shift(float x) { return x + 1.0f; }
