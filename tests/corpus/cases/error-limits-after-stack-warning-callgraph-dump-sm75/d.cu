__device__ void fa(int *p); __device__ void fb(int *p);
__global__ void kd(int *p) { fa(p); fb(p); }
