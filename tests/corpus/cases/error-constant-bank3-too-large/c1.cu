// c1.cu: part of the error-constant-bank3-too-large case
__constant__ float big1[10240];
__global__ void k1(float *o) { o[threadIdx.x] = big1[threadIdx.x]; }
