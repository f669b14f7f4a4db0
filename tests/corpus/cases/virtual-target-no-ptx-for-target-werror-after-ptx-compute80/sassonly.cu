__device__ float offset(float x) { return x + 1.0f; }
