__device__ float unused_clamp(float x) { return x < 0.0f ? 0.0f : x; }
