__global__ void kb1(double *o) { o[threadIdx.x] = sqrt(o[threadIdx.x]); }
__global__ void kb2(double *o) { o[threadIdx.x] = 1.0 / o[threadIdx.x]; }
