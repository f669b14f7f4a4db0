__device__ long long undef1(long long x);
__global__ void ku(long long *o) { o[threadIdx.x] = undef1(o[4]); }
