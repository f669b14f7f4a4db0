__device__ float bias(int i) { return 0.25f * (i & 7); }
