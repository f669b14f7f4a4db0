// b.cu: another kernel, no indirect call
__global__ void kother(int *o) { o[threadIdx.x] = threadIdx.x; }
