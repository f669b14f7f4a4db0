__device__ int hop_step(int x) { return (x * 3 + 1) >> 1; }
