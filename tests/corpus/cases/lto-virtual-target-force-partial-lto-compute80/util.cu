__device__ float blend(float a, float b) { return 0.75f * a + 0.25f * b; }
