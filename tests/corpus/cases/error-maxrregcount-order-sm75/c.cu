__device__ long long hv2(long long x);
__global__ void kd(long long *o) { o[threadIdx.x] = hv2(o[3]); }
