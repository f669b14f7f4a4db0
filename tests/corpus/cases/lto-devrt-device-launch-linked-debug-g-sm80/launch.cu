__global__ void child(float *p) { p[threadIdx.x] += 1.f; }
__global__ void parent(float *p) { if (threadIdx.x == 0) child<<<1, 32>>>(p); }
