// c2.cu: part of the error-constant-bank3-too-large case
__constant__ float big2[10240];
__global__ void k2(float *o) { o[threadIdx.x] = big2[threadIdx.x]; }
