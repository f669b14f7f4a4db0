__global__ void k1(double *o) { o[threadIdx.x] = sqrt(o[threadIdx.x]); }
__global__ void k2(double *o) { o[threadIdx.x] = 1.0 / o[threadIdx.x]; }
